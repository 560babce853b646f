import { runService } from "@tollgate/kit";
import { authService } from "./service.js";

runService(authService);
