import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link } from "react-router";
import { ApiError } from "../../api/client";
import { businessKeys } from "../../api/keys";
import { SignedInArea, SignedInBar } from "../../components/SignedInArea";
import { Loaded } from "../../components/Loaded";
import { businessMeOptions } from "./api/business-me";
import { businessSignOut } from "./api/business-sign-out";
import { waitingOptions } from "./api/consent";
import { businessStoresOptions } from "./api/list-stores";
import { ApiKeys } from "./ApiKeys";
import { CoOwners } from "./CoOwners";
import { PendingOwners } from "./PendingOwners";
import { ConfirmEmailState } from "./ConfirmEmail";
import { SignInForm } from "./SignInForm";
import { StoreEditor } from "./StoreEditor";
import { StockUpload } from "./StockUpload";
import { StoreReviews } from "./StoreReviews";
import { StoreStock } from "./StoreStock";
import type { BusinessAccount, BusinessStore } from "./types";

// The insights chart is its own chunk: loaded once a store is selected.
const StoreInsights = lazy(async () => ({ default: (await import("./insights/StoreInsights")).StoreInsights }));

// The reset and confirmation pages ride in the dashboard's chunk: one lazy chunk for the whole business area.
export { BusinessResetPasswordPage } from "./ResetPasswordPage";
export { BusinessVerifyPage } from "./ConfirmEmail";
export { BusinessConsentPage } from "./ConsentPage";


/** /business: the store dashboard of the business accounts the claim wizard creates. */
export function BusinessPage({ now = new Date() }: { now?: Date }) {
  const queryClient = useQueryClient();
  const signOut = () => {
    void businessSignOut().finally(() => queryClient.setQueryData(businessKeys.me, null));
  };
  return (
    <SignedInArea
      title="Store dashboard"
      account={useQuery(businessMeOptions())}
      signIn={<SignInForm onSignedIn={(account) => queryClient.setQueryData(businessKeys.me, account)} />}
      links={
        <Link to="/claim" className="inline-flex min-h-6 items-center font-medium text-emerald-800 underline">
          Claim your store
        </Link>
      }
    >
      {(account) =>
        // Nothing else until the mailbox is proven: the server refuses every store call meanwhile.
        account.email_verified ? <Dashboard account={account} now={now} /> : <ConfirmEmailState account={account} onSignOut={signOut} />
      }
    </SignedInArea>
  );
}

function Dashboard({ account, now }: { account: BusinessAccount; now: Date }) {
  const queryClient = useQueryClient();
  const stores = useQuery(businessStoresOptions());
  const waiting = useQuery(waitingOptions());
  const [selectedId, setSelectedId] = useState<number | null>(null);

  const signedOut = () => {
    queryClient.removeQueries({ queryKey: businessKeys.stores });
    queryClient.setQueryData(businessKeys.me, null);
  };
  useEffect(() => {
    if (stores.error instanceof ApiError && stores.error.status === 401) signedOut();
  });

  const list = stores.data ?? [];
  const selected = list.find((s) => s.id === selectedId) ?? (list.length === 1 ? list[0] : undefined);
  const saved = (store: BusinessStore) =>
    queryClient.setQueryData(businessKeys.stores, (old: BusinessStore[] | undefined) => (old ?? []).map((s) => (s.id === store.id ? store : s)));

  return (
    <main>
      <SignedInBar
        title="Store dashboard"
        email={account.email}
        signOut={async () => {
          await businessSignOut();
          signedOut();
        }}
      />
      <div className="mx-auto grid max-w-5xl gap-6 px-4 py-4 md:grid-cols-[minmax(12rem,16rem)_1fr]">
        <section aria-labelledby="stores-heading" className="flex min-w-0 flex-col gap-2">
          <h2 id="stores-heading" className="text-base font-semibold text-gray-900">
            Your stores
          </h2>
          <Loaded query={stores} loading="Loading your stores…" failed="Could not load your stores">
            {() =>
              list.length === 0 ? (
                (waiting.data ?? []).length === 0 && <p className="text-gray-700">No store yet: your claim is waiting for a moderator.</p>
              ) : (
                <ul className="flex flex-col gap-1">
                  {list.map((s) => (
                    <li key={s.id}>
                      <button
                        type="button"
                        aria-current={selected?.id === s.id ? "true" : undefined}
                        onClick={() => setSelectedId(s.id)}
                        className="w-full rounded-md border border-gray-200 bg-white px-3 py-2 text-left text-sm hover:bg-gray-50 aria-[current=true]:border-emerald-700"
                      >
                        <span className="block font-medium text-gray-900">{s.name}</span>
                        <span className="block text-gray-600">{s.city}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )
            }
          </Loaded>
          {(waiting.data ?? []).length > 0 && (
            <section aria-labelledby="waiting-heading" className="flex flex-col gap-1">
              <h3 id="waiting-heading" className="text-sm font-semibold text-gray-900">
                Waiting for the owner&apos;s consent
              </h3>
              <ul className="flex flex-col gap-1">
                {(waiting.data ?? []).map((w) => (
                  <li key={w.claim_id} className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm">
                    <span className="block font-medium text-gray-900">{w.name}</span>
                    <span className="block text-gray-700">
                      {w.address}, {w.city}
                    </span>
                    <span className="block text-gray-800">
                      Your claim #{w.claim_id} was approved, but the store has an owner: you can change it once they (or a moderator) accept you.
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </section>
        <div className="min-w-0">
          {selected ? (
            <div className="flex flex-col gap-6">
              <StoreEditor key={selected.id} store={selected} onSaved={saved} now={now} />
              <PendingOwners key={`pending-${selected.id}`} store={selected} onChanged={saved} />
              <CoOwners key={`owners-${selected.id}`} store={selected} onChanged={saved} />
              <StoreStock key={`stock-${selected.id}`} store={selected} />
              <StoreReviews key={`reviews-${selected.id}`} storeId={selected.id} />
              <Suspense fallback={null}>
                <StoreInsights key={`insights-${selected.id}`} storeId={selected.id} />
              </Suspense>
            </div>
          ) : (
            list.length > 0 && <p className="text-gray-700">Select a store to change its details.</p>
          )}
        </div>
      </div>
      {list.length > 0 && (
        <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 pb-6">
          <StockUpload />
          <ApiKeys />
        </div>
      )}
    </main>
  );
}
