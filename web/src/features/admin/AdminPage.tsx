import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { failureText } from "../../api/client";
import { adminKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { Spinner } from "../../components/ui/spinner";
import { SignedInArea, SignedInBar } from "../../components/SignedInArea";
import { Loaded } from "../../components/Loaded";
import { adminMeOptions } from "./api/admin-me";
import { adminSignOut } from "./api/admin-sign-out";
import { claimOptions } from "./api/get-claim";
import { claimsOptions } from "./api/list-claims";
import { ClaimDetail } from "./ClaimDetail";
import { ClaimList, StatusFilter } from "./ClaimList";
import { LicencesPanel } from "./LicencesPanel";
import { ProductsPanel } from "./ProductsPanel";
import { MedusaPanel } from "./MedusaPanel";
import { PartnersPanel } from "./partners/PartnersPanel";
import { ReportsPanel } from "./ReportsPanel";
import { ReviewsPanel, reviewQueueKey } from "./ReviewsPanel";
import { PositionsPanel } from "./PositionsPanel";
import { approximateKey } from "./api/approximate-stores";
import { STATUS_LABELS } from "./messages";
import { SignInForm } from "./SignInForm";
import { StoreOwners } from "./StoreOwners";
import type { Claim, ClaimFilter, Moderator } from "./types";
import { Notice } from "../../components/ui/outcome";
import { isUnauthorized } from "./unauthorized";

const VIEW_TITLES = {
  claims: "Claims moderation",
  reports: "Store reports",
  reviews: "Review queue",
  positions: "Stores to place",
  licences: "Licences",
  products: "Products",
  medusa: "Marketplace stock locations",
  partners: "Partners",
  demand: "Demand",
} as const;
/** The views' chips, in order, with their labels. */
const VIEWS: [keyof typeof VIEW_TITLES, string][] = [
  ["claims", "Claims"],
  ["reports", "Reports"],
  ["reviews", "Reviews"],
  ["positions", "Stores to place"],
  ["licences", "Licences"],
  ["products", "Products"],
  ["medusa", "Marketplace"],
  ["partners", "Partners"],
  ["demand", "Demand"],
];

// Demand (charts, the heat map) is its own chunk: loaded when the view opens.
const DemandPanel = lazy(async () => ({ default: (await import("./demand/DemandPanel")).DemandPanel }));

/** /admin: moderators sign in and approve or reject store claims (issue #5). */
export function AdminPage() {
  const queryClient = useQueryClient();
  return (
    <SignedInArea
      title="Moderation"
      account={useQuery(adminMeOptions())}
      signIn={<SignInForm onSignedIn={(moderator) => queryClient.setQueryData(adminKeys.me, moderator)} />}
    >
      {(moderator) => <Moderation moderator={moderator} />}
    </SignedInArea>
  );
}

function Moderation({ moderator }: { moderator: Moderator }) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<keyof typeof VIEW_TITLES>("claims");
  const [filter, setFilter] = useState<ClaimFilter>("pending");
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [notice, setNotice] = useState("");
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusDetail = useRef(false);

  const list = useQuery(claimsOptions(filter));
  const detail = useQuery({ ...claimOptions(selectedId ?? 0), enabled: selectedId !== null });

  const signedOut = () => {
    queryClient.removeQueries({ queryKey: adminKeys.claims });
    queryClient.removeQueries({ queryKey: adminKeys.reports });
    queryClient.removeQueries({ queryKey: reviewQueueKey });
    queryClient.removeQueries({ queryKey: adminKeys.changes });
    queryClient.removeQueries({ queryKey: adminKeys.licences });
    queryClient.removeQueries({ queryKey: adminKeys.products });
    queryClient.removeQueries({ queryKey: adminKeys.medusa });
    queryClient.removeQueries({ queryKey: adminKeys.partners });
    queryClient.removeQueries({ queryKey: ["admin", "demand"] });
    queryClient.removeQueries({ queryKey: approximateKey });
    queryClient.setQueryData(adminKeys.me, null);
  };

  useEffect(() => {
    if (isUnauthorized(list.error) || isUnauthorized(detail.error)) signedOut();
  });

  // Focus the claim's heading once it shows after a selection or a decision.
  useEffect(() => {
    if (focusDetail.current && detail.data) {
      focusDetail.current = false;
      headingRef.current?.focus();
    }
  }, [detail.data]);

  const select = (id: number) => {
    focusDetail.current = true;
    setNotice("");
    setSelectedId(id);
    if (id === selectedId) headingRef.current?.focus();
  };

  const decided = (message: string, claim?: Claim) => {
    setNotice(message);
    focusDetail.current = true;
    if (claim) queryClient.setQueryData(adminKeys.claim(claim.id), claim);
    void queryClient.invalidateQueries({ queryKey: adminKeys.claims });
  };

  return (
    <main>
      <SignedInBar
        title={VIEW_TITLES[view]}
        email={moderator.email}
        signOut={async () => {
          await adminSignOut();
          signedOut();
        }}
      >
        <nav aria-label="Moderation" className="flex gap-2">
          {VIEWS.map(([v, label]) => (
            <Button key={v} variant="chip" aria-pressed={view === v} onClick={() => setView(v)}>
              {label}
            </Button>
          ))}
        </nav>
      </SignedInBar>
      {view === "demand" ? (
        <div className="mx-auto max-w-5xl px-4 py-4">
          <Suspense fallback={null}>
            <DemandPanel onUnauthorized={signedOut} />
          </Suspense>
        </div>
      ) : view === "partners" ? (
        <div className="mx-auto max-w-4xl px-4 py-4">
          <PartnersPanel onUnauthorized={signedOut} />
        </div>
      ) : view === "medusa" ? (
        <div className="mx-auto max-w-4xl px-4 py-4">
          <MedusaPanel onUnauthorized={signedOut} />
        </div>
      ) : view === "products" ? (
        <div className="mx-auto max-w-4xl px-4 py-4">
          <ProductsPanel onUnauthorized={signedOut} />
        </div>
      ) : view === "licences" ? (
        <div className="mx-auto max-w-4xl px-4 py-4">
          <LicencesPanel onUnauthorized={signedOut} />
        </div>
      ) : view === "positions" ? (
        <div className="mx-auto max-w-4xl px-4 py-4">
          <PositionsPanel onUnauthorized={signedOut} />
        </div>
      ) : view === "reviews" ? (
        <div className="mx-auto max-w-4xl px-4 py-4">
          <ReviewsPanel onUnauthorized={signedOut} />
        </div>
      ) : view === "reports" ? (
        <div className="mx-auto max-w-4xl px-4 py-4">
          <ReportsPanel onUnauthorized={signedOut} />
        </div>
      ) : (
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-4 md:grid-cols-[minmax(16rem,22rem)_1fr]">
        <Notice notice={notice} className="md:col-span-2" />
        <section aria-labelledby="claims-heading" className="flex min-w-0 flex-col gap-3">
          <h2 id="claims-heading" className="text-base font-semibold text-gray-900">
            {STATUS_LABELS[filter]} claims
          </h2>
          <StatusFilter
            value={filter}
            onChange={(f) => {
              setFilter(f);
              setNotice("");
            }}
          />
          <Loaded query={list} loading="Loading claims…" failed="Could not load claims">
            {(data) =>
              data.length === 0 ? (
                <p className="text-gray-700">No {filter === "all" ? "" : `${STATUS_LABELS[filter].toLowerCase()} `}claims.</p>
              ) : (
                <ClaimList claims={data} selectedId={selectedId} onSelect={select} />
              )
            }
          </Loaded>
        </section>
        <div className="min-w-0 rounded-md border border-gray-200 bg-white p-4">
          {selectedId === null ? (
            <p className="text-gray-700">Select a claim to review it.</p>
          ) : detail.isPending ? (
            <Spinner label="Loading the claim…" />
          ) : detail.isError ? (
            <FormError>{`Could not load the claim: ${failureText(detail.error)}`}</FormError>
          ) : (
            <ClaimDetail
              key={detail.data.id}
              claim={detail.data}
              headingRef={headingRef}
              onDecided={decided}
              onUnauthorized={signedOut}
            />
          )}
        </div>
        <StoreOwners />
      </div>
      )}
    </main>
  );
}
