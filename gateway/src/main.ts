import { runProgram } from "@tollgate/kit";
import { loadGatewayConfig } from "./config.js";
import { startGateway } from "./gateway.js";

runProgram({ name: "gateway", loadConfig: () => loadGatewayConfig(), serve: startGateway });
