import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, failureText } from "../../api/client";
import { businessKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { Outcome, useOutcome } from "../../components/ui/outcome";
import { apiKeysOptions, createApiKey, revokeApiKey, type ApiKey } from "./api/api-keys";

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" });
const when = (iso: string) => dateFormat.format(new Date(iso));

/**
 * "Point-of-sale API keys": keys a till or stock system sends with its stock (docs/products.md,
 * "Point-of-sale API"). A new key is shown once, to copy; the list shows each key's first
 * characters and dates, and revokes a key at once. Hidden where the server keeps no keys (404).
 */
export function ApiKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery(apiKeysOptions());
  const outcome = useOutcome();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [copied, setCopied] = useState(false);

  if (keys.error instanceof ApiError && keys.error.status === 404) return null;
  const data = keys.data;
  const active = (data?.keys ?? []).filter((k) => !k.revoked_at).length;
  const full = data !== undefined && active >= data.max_active;

  const create = async (event: FormEvent) => {
    event.preventDefault();
    outcome.clear();
    setCopied(false);
    setBusy(true);
    try {
      const made = await createApiKey(name);
      setCreated({ name: made.key.name, secret: made.secret });
      setName("");
      await queryClient.invalidateQueries({ queryKey: businessKeys.apiKeys });
    } catch (error) {
      outcome.setFailure(`Could not create the key: ${failureText(error)}`);
    }
    setBusy(false);
  };

  const revoke = async (key: ApiKey) => {
    if (!window.confirm(`Revoke “${key.name}”? Anything using it stops working at once.`)) return;
    outcome.clear();
    setBusy(true);
    try {
      await revokeApiKey(key.id);
      outcome.setNotice(`“${key.name}” is revoked.`);
      await queryClient.invalidateQueries({ queryKey: businessKeys.apiKeys });
    } catch (error) {
      outcome.setFailure(`Could not revoke “${key.name}”: ${failureText(error)}`);
    }
    setBusy(false);
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
    } catch {
      outcome.setFailure("Could not copy: select the key and copy it yourself.");
    }
  };

  return (
    <section aria-labelledby="api-keys-heading" className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h2 id="api-keys-heading" className="text-base font-semibold text-gray-900">
        Point-of-sale API keys
      </h2>
      <p className="text-sm text-gray-700">
        Your till or stock system sends your stores&apos; stock with a key: <code>POST /api/pos/v1/stock</code> with{" "}
        <code>Authorization: Bearer</code> and the key. A key writes only the stock of the stores you own
        {data ? `, at most ${data.per_minute} calls a minute; you can have ${data.max_active} keys.` : "."}
      </p>
      {created && (
        <div className="flex flex-col gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-3" role="group" aria-label="New key">
          <Field label={`Your new key “${created.name}”`} value={created.secret} readOnly onFocus={(e) => e.currentTarget.select()} hint="Shown this once: copy it now. We keep only a fingerprint of it." />
          <div className="flex flex-wrap items-center gap-2">
            <Button type="button" variant="outline" onClick={() => void copy()}>
              Copy key
            </Button>
            <Button type="button" variant="outline" onClick={() => setCreated(null)}>
              Done
            </Button>
            <span role="status" className="text-sm text-emerald-900">
              {copied ? "Copied." : ""}
            </span>
          </div>
        </div>
      )}
      <form noValidate onSubmit={(e) => void create(e)} className="flex flex-wrap items-end gap-2">
        <Field label="Key name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} hint="What will use it, e.g. Front till." className="min-w-48 flex-1" />
        <Button type="submit" disabled={busy || full || name.trim() === ""}>
          Create key
        </Button>
      </form>
      {full && <p className="text-sm text-gray-800">You have {data.max_active} active keys: revoke one to create another.</p>}
      {keys.isError && <Outcome notice="" failure={`Could not load your keys: ${failureText(keys.error)}`} />}
      {data && data.keys.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Your keys">
          {data.keys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="text-gray-900">
                <span className="font-medium">{k.name}</span> <code className="text-gray-700">{k.prefix}…</code>
                <span className="block text-gray-700">
                  Created {when(k.created_at)} · {k.last_used_at ? `last used ${when(k.last_used_at)}` : "never used"}
                  {k.revoked_at && ` · revoked ${when(k.revoked_at)}`}
                </span>
              </span>
              {!k.revoked_at && (
                <Button variant="outline" disabled={busy} onClick={() => void revoke(k)}>
                  {`Revoke ${k.name}`}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Outcome {...outcome} />
    </section>
  );
}
