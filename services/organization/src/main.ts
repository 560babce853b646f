import { runService } from "@tollgate/kit";
import { organizationService } from "./service.js";

runService(organizationService);
