import type { Customer } from "../../api/types";

/** The signed-in customer (favorites_phstores newest first). */
export type { Customer };

/** The auth popup's views (spec section 2, "Auth popup"). */
export type PopupView = "sign-in" | "sign-up" | "reset-password" | "reset-link" | "favorites";
