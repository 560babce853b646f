import * as z from "zod/mini";
import { aName } from "../../forms/schemas";

/** A saved dashboard's name: the server takes any that is not empty; 100 characters fit its picker. */
export const dashboardNameForm = z.object({ name: aName(100) });
export type DashboardNameForm = z.input<typeof dashboardNameForm>;
