import { queryOptions } from "@tanstack/react-query";
import { api, ApiError, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import type { Moderator } from "../types";

/** GET admin/me (credentials): the signed-in moderator, or null when signed out (401). */
export function adminMeOptions() {
  return queryOptions({
    queryKey: adminKeys.me,
    queryFn: async ({ signal }): Promise<Moderator | null> => {
      try {
        return unwrap(await api.GET("/admin/me", { credentials: "include", signal })).moderator;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
}
