import type { components } from "../../api/schema";

/** A store claim as moderators see it (generated from api/openapi.yaml). */
export type Claim = components["schemas"]["Claim"];
export type ClaimStatus = Claim["status"];
/** The published store a claim matches, with its owners and the field-by-field comparison. */
export type ExistingStore = NonNullable<Claim["existing_store"]>;
export type FieldComparison = ExistingStore["fields"][number];
/** A field of the comparison the moderator can take from the claim. */
export type ClaimField = FieldComparison["field"];
/** The list filter: one status or every claim. */
export type ClaimFilter = ClaimStatus | "all";
export interface Moderator {
  email: string;
}
export type { Coordinates } from "../../components/location/coordinates";
