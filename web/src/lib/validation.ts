import { z } from "zod";

/** A string that must hold something other than spaces; `message` when it does not. */
export function required(message: string) {
  return z.string().refine((value) => value.trim() !== "", { message });
}
