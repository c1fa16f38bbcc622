import type { ComponentType } from "react";
import type { PopupView } from "../../lib/session";
import { ResetLinkView } from "./ResetLinkView";
import { ResetRequestView } from "./ResetRequestView";
import { SignInView } from "./SignInView";
import { SignUpView } from "./SignUpView";

/**
 * The auth popup's views owned by this feature (the favorites view lives in features/favorites).
 * Loaded with the popup chunk.
 */
export const authPopupViews: Record<Exclude<PopupView, "favorites">, ComponentType> = {
  "sign-in": SignInView,
  "sign-up": SignUpView,
  "reset-password": ResetRequestView,
  "reset-link": ResetLinkView,
};
