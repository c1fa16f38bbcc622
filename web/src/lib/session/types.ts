import type { Customer } from "../../api/types";

/** The signed-in customer (favorites_phstores newest first). */
export type { Customer };

/** The auth popup's views. */
export type PopupView = "sign-in" | "sign-up" | "reset-password" | "reset-link" | "favorites";
