import type { components } from "../../api/schema";

/** A store of the signed-in business account (generated from api/openapi.yaml). */
export type BusinessStore = components["schemas"]["BusinessStore"];
export type StorePatch = components["schemas"]["StorePatch"];
export type ChangeRequest = components["schemas"]["ChangeRequest"];
/** A business account; until email_verified (its owner followed the mailed link) it opens no store. */
export interface BusinessAccount {
  email: string;
  store_name: string;
  email_verified: boolean;
}
