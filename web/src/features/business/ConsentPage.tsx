import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { Notice } from "../../components/ui/outcome";
import { consentByLink, consentRequestOptions, type Decision } from "./api/consent";

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/**
 * /business/consent?token=...: the link mailed to a store's owners when a moderator approves a
 * claim on their store by an account that is not an owner. Opening it only shows the request (mail
 * scanners open links); the owner's click on Accept or Decline decides, and uses the link up.
 */
export function BusinessConsentPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const request = useQuery({ ...consentRequestOptions(token), enabled: token !== "" });
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    document.title = "A co-owner for your store · Store dashboard";
  }, []);

  const decide = async (decision: Decision) => {
    setBusy(true);
    setFailure(null);
    try {
      setDone(await consentByLink(token, decision));
    } catch (error) {
      setFailure(failureText(error));
    }
    setBusy(false);
  };

  const r = request.data;
  return (
    <main className="mx-auto flex w-full max-w-lg flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-semibold text-gray-900">A co-owner for your store?</h1>
      {token === "" && <FormError>This link is incomplete. Open the link from the email again.</FormError>}
      {request.isPending && token !== "" && <p className="text-gray-700">Loading the request…</p>}
      {request.error && <FormError>{failureText(request.error)}</FormError>}
      {r && !done && (
        <>
          <p className="text-gray-800">
            A moderator approved claim #{r.claim_id} on your store <strong>{r.store_name}</strong> ({r.address}, {r.city} {r.postal_code}) on{" "}
            {dateFormat.format(new Date(r.since))}. The claim was made with <strong className="break-all">{r.email}</strong>, which is not an owner of
            the store.
          </p>
          <p className="text-gray-800">
            If you accept, that account can change the store&apos;s phone, website, hours and photo like you. If you decline, it never can. Nothing
            changes until you choose.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button disabled={busy} onClick={() => void decide("accept")}>
              Accept {r.email} as a co-owner
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => void decide("decline")}>
              Decline
            </Button>
          </div>
        </>
      )}
      {failure && <FormError>{failure}</FormError>}
      <Notice notice={done} />
      <Link to="/business" className="text-sm font-medium text-emerald-800 underline">
        Go to the store dashboard
      </Link>
    </main>
  );
}
