import { api, unwrap } from "../../../api/client";
import type { paths } from "../../../api/schema";

/** The fixed text naming where the business account came from. */
export const REFERRED_BY = "locator-claim-form";

/** Business account creation payload. */
export type CreateUserPayload = NonNullable<paths["/store/create-user"]["post"]["requestBody"]>["content"]["application/json"];

/** POST store/create-user: the store dashboard account. 201 {message}; 409 when the email is taken. */
export async function createUser(payload: CreateUserPayload) {
  return unwrap(await api.POST("/store/create-user", { body: payload }));
}
