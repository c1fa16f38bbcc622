import type { ComponentType } from "react";
import type { PopupView } from "../../lib/session";
import { ResetLinkView, ResetPasswordView, SignInView, SignUpView } from "./placeholders";

/**
 * The auth popup's views owned by this feature (the favorites view lives in features/favorites).
 * Loaded with the popup chunk; issue #7 swaps the placeholders for the real forms here.
 */
export const authPopupViews: Record<Exclude<PopupView, "favorites">, ComponentType> = {
  "sign-in": SignInView,
  "sign-up": SignUpView,
  "reset-password": ResetPasswordView,
  "reset-link": ResetLinkView,
};
