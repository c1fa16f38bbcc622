import type { PhysicalStore } from "../../api/types";

/** The signed-in customer as GET store/customers/me answers it (typed here until the schema has it). */
export interface Customer {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  /** Newest first. */
  favorites_phstores: PhysicalStore[];
}

/** The auth popup's views (spec section 2, "Auth popup"). */
export type PopupView = "sign-in" | "sign-up" | "reset-password" | "reset-link" | "favorites";
