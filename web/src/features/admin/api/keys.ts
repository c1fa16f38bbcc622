/** TanStack Query keys of the moderation page. */
export const adminKeys = {
  me: ["admin", "me"] as const,
  claims: ["admin", "claims"] as const,
  list: (status: string) => ["admin", "claims", "list", status] as const,
  claim: (id: number) => ["admin", "claims", "one", id] as const,
};
