import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { customerKeys } from "../../api/keys";
import { meOptions } from "./api/get-me";
import { addFavorite } from "./api/add-favorite";
import { signIn, type SignInPayload } from "./api/sign-in";
import { takePendingFavorite } from "./pendingFavorite";
import { signOut } from "./api/sign-out";
import { usePopup } from "./context";
import type { Customer } from "./types";

export type LoginState = "unknown" | "logged-in" | "logged-out";

/** The signed-in customer from the cached customers/me answer; "unknown" until it is in. */
export function useCustomer(): { loginState: LoginState; customer: Customer | null } {
  const { data, isError } = useQuery(meOptions());
  if (data) return { loginState: "logged-in", customer: data };
  return { loginState: data === null || isError ? "logged-out" : "unknown", customer: null };
}

/** Sign-in: on success the answer (with the favourites) becomes the session and the popup closes. */
export function useSignIn() {
  const queryClient = useQueryClient();
  const { closePopup } = usePopup();
  return useMutation({
    mutationFn: (payload: SignInPayload) => signIn(payload),
    onSuccess: (customer) => {
      queryClient.setQueryData(customerKeys.me, customer);
      closePopup();
      // A Favorite pressed while signed out is finished now (m14): the server's answer carries the list.
      const id = takePendingFavorite();
      if (id !== null && !customer.favorites_phstores?.some((s) => s.id === id)) {
        addFavorite(id).then(
          (after) => queryClient.setQueryData<Customer | null>(customerKeys.me, (me) => (me && after.favorites_phstores ? { ...me, favorites_phstores: after.favorites_phstores } : me)),
          () => console.log("There is some error adding store to favorites"),
        );
      }
    },
  });
}

/** Logout: ends the session on the server; signed out locally either way (favourites emptied), then /. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { closePopup } = usePopup();
  const { mutateAsync } = useMutation({
    mutationFn: signOut,
    onSettled: () => {
      queryClient.setQueryData<Customer | null>(customerKeys.me, null);
      closePopup();
      void navigate("/");
    },
  });
  return useCallback(() => mutateAsync().catch(() => undefined), [mutateAsync]);
}
