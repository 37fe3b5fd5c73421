import { z } from 'zod';

/** The one error shape of the HTTP API: `{"error":{"code","message"}}` with a 4xx or 503 status. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});
