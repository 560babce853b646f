import { runService } from "@tollgate/kit";
import { billingService } from "./service.js";

runService(billingService);
