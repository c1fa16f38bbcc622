import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { customerKeys } from "../../api/keys";
import type { PhysicalStore } from "../../api/types";
import { rememberFavorite } from "./pendingFavorite";
import { addFavorite } from "./api/add-favorite";
import { removeFavorite } from "./api/remove-favorite";
import { usePopup } from "./context";
import { useCustomer } from "./customer";
import type { Customer } from "./types";

export const ADD_FAVORITE_ERROR = "There is some error adding store to favorites";
export const REMOVE_FAVORITE_ERROR = "There is some error removing store from favorites";

const NONE: PhysicalStore[] = [];

/** The favourites list with `store` added to the front (once) or removed. */
export function withFavorite(list: readonly PhysicalStore[], store: PhysicalStore, add: boolean): PhysicalStore[] {
  const others = list.filter((s) => s.id !== store.id);
  return add ? [store, ...others] : others;
}

/**
 * The signed-in customer's favourites (newest first; empty when signed out) and the changes to
 * them. A change is applied to the cached customer before the call and kept whatever the call
 * answers: no rollback on failure (only a console log), and the server's answer is not read back.
 */
export function useFavorites() {
  const queryClient = useQueryClient();
  const { loginState, customer } = useCustomer();
  const { openPopup } = usePopup();
  const favorites = customer?.favorites_phstores ?? NONE;

  const { mutate } = useMutation({
    mutationFn: ({ store, add }: { store: PhysicalStore; add: boolean }) => (add ? addFavorite(store.id) : removeFavorite(store.id)),
    onMutate: async ({ store, add }) => {
      await queryClient.cancelQueries({ queryKey: customerKeys.me });
      queryClient.setQueryData<Customer | null>(customerKeys.me, (me) => me && { ...me, favorites_phstores: withFavorite(me.favorites_phstores ?? [], store, add) });
    },
    onError: (_error, { add }) => console.log(add ? ADD_FAVORITE_ERROR : REMOVE_FAVORITE_ERROR),
  });

  const isFavorite = useCallback((id: number) => favorites.some((s) => s.id === id), [favorites]);

  /**
   * Signed out: opens the sign-in popup and answers true (a favourite needs an account); the store
   * of a Favorite press (favoriteId) is favourited once signed in. Signed in: false.
   */
  const askSignIn = useCallback(
    (favoriteId?: number) => {
      if (loginState === "logged-in") return false;
      if (favoriteId !== undefined) rememberFavorite(favoriteId); // favourited after the sign-in (m14)
      openPopup("sign-in");
      return true;
    },
    [loginState, openPopup],
  );

  /**
   * The detail panel's Favorite toggle. Signed out: opens the sign-in popup and answers "sign-in"
   * (the caller clears the selected store). Otherwise adds the store to the front or removes it
   * and answers the new state.
   */
  const toggleFavorite = useCallback(
    (store: PhysicalStore): "sign-in" | "added" | "removed" => {
      if (askSignIn(store.id)) return "sign-in";
      const add = !isFavorite(store.id);
      mutate({ store, add });
      return add ? "added" : "removed";
    },
    [askSignIn, isFavorite, mutate],
  );

  /** Removes a favourite (the heart in the favourites view), handled like the toggle. */
  const remove = useCallback((store: PhysicalStore) => mutate({ store, add: false }), [mutate]);

  return { favorites, isFavorite, toggleFavorite, askSignIn, removeFavorite: remove };
}
