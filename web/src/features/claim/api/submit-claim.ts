import { api, unwrap } from "../../../api/client";
import type { components } from "../../../api/schema";

/** The claim form fields. */
export type ClaimPayload = components["schemas"]["ClaimRequest"];

/** POST store/claim: 201 {message, claim:{id,status}} (200 for a retried identical claim); failures carry {message}. */
export async function submitClaim(payload: ClaimPayload) {
  return unwrap(await api.POST("/store/claim", { body: payload }));
}
