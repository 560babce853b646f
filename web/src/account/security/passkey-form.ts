import * as z from "zod/mini";
import { aName } from "../../forms/schemas";

/** A passkey's name, when it is added or renamed. */
export const passkeyNameForm = z.object({ name: aName(64) });
export type PasskeyNameForm = z.infer<typeof passkeyNameForm>;
