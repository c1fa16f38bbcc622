import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Loaded } from "../../../components/Loaded";
import { Button } from "../../../components/ui/button";
import { Field, FormError } from "../../../components/ui/field";
import { createPartnerKey, partnerKeysOptions, revokePartnerKey, type Partner } from "./api";
import { ShownOnce, useShownOnce } from "./secrets";

/** A partner's read API keys (docs/partners.md): made here, the key shown once, revoked here. */
export function KeysSection({ partner }: { partner: Partner }) {
  const keys = useQuery(partnerKeysOptions(partner.id));
  const [name, setName] = useState("");
  const { secret, failure, create, change } = useShownOnce(partnerKeysOptions(partner.id).queryKey);
  const make = (event: FormEvent) => {
    event.preventDefault();
    void create(() => createPartnerKey(partner.id, name), () => setName(""), "Could not make the key");
  };
  const revoke = (keyId: number) => void change(() => revokePartnerKey(partner.id, keyId), "Could not revoke the key");
  return (
    <section aria-label={`API keys of ${partner.name}`} className="mt-4 flex flex-col gap-2">
      <h4 className="font-semibold text-gray-900">Read API keys</h4>
      <Loaded query={keys} loading="Loading keys…" failed="Could not load the keys">
        {(data) =>
          data.keys.length === 0 ? (
            <p className="text-sm text-gray-700">No keys.</p>
          ) : (
            <ul className="flex flex-col gap-1 text-sm">
              {data.keys.map((k) => (
                <li key={k.id} className="flex flex-wrap items-center gap-2">
                  <span className="font-mono">{k.prefix}…</span> {k.name}
                  {k.revoked_at ? (
                    <span className="text-gray-600">revoked</span>
                  ) : (
                    <Button variant="outline" onClick={() => revoke(k.id)}>
                      Revoke <span className="sr-only">{k.name}</span>
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <ShownOnce what="The new key" secret={secret} />
      <form onSubmit={make} aria-label="New key" className="flex flex-wrap items-end gap-2">
        <Field label="Key name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
        <Button type="submit">Make a key</Button>
      </form>
      {failure && <FormError>{failure}</FormError>}
    </section>
  );
}
