import { z } from "zod";

// zod probes for eval with Function("") before its first object parse; the server's
// Content-Security-Policy refuses eval and reports each attempt. Its interpreted checks need
// none. Every schema takes z from here (ESLint forbids importing "zod" elsewhere), so this runs
// before any parse.
z.config({ jitless: true });

export { z };

/** A string that must hold something other than spaces; `message` when it does not. */
export function required(message: string) {
  return z.string().refine((value) => value.trim() !== "", { message });
}
