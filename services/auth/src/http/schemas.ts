import { z } from "zod";

/** better-auth's acknowledgements: the request was carried out. Some endpoints say `status`, others `success`. */
export const StatusAnswer = z.strictObject({ status: z.boolean() });
export const SuccessAnswer = z.strictObject({ success: z.boolean() });
