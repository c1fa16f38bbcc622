import type { components } from "../../api/schema";

/** A store claim as moderators see it (generated from api/openapi.yaml). */
export type Claim = components["schemas"]["Claim"];
export type ClaimStatus = Claim["status"];
/** The list filter: one status or every claim. */
export type ClaimFilter = ClaimStatus | "all";
export interface Moderator {
  email: string;
}
export interface Coordinates {
  latitude: number;
  longitude: number;
}
