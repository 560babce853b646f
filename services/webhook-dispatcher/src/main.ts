import { runService } from "@tollgate/kit";
import { webhookDispatcherService } from "./service.js";

runService(webhookDispatcherService);
