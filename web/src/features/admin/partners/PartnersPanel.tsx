import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { failureText } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import { Loaded } from "../../../components/Loaded";
import { Button } from "../../../components/ui/button";
import { FormError } from "../../../components/ui/field";
import { Notice } from "../../../components/ui/outcome";
import { createPartner, disablePartner, editPartner, partnersOptions, type Partner } from "./api";
import { KeysSection } from "./KeysSection";
import { PartnerForm } from "./PartnerForm";
import { PartnerReport } from "./PartnerReport";
import { WebhooksSection } from "./WebhooksSection";
import { isUnauthorized, useSignedOutOn } from "../unauthorized";

const KIND_LABELS = { brand: "Brand", pos: "Point-of-sale vendor", chain: "Chain" } as const;

/**
 * "Partners" in /admin (docs/partners.md): the brands, point-of-sale vendors and chains, each
 * with its allowed sites, brands and products; a moderator adds, edits and disables them. Each
 * section of a partner is its own component in this folder.
 */
export function PartnersPanel({ onUnauthorized }: { onUnauthorized: () => void }) {
  const queryClient = useQueryClient();
  const list = useQuery(partnersOptions());
  const [openId, setOpenId] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState("");
  const [failure, setFailure] = useState("");
  useSignedOutOn([list.error], onUnauthorized);
  const saved = (message: string) => (p: Partner) => {
    setNotice(message.replace("{name}", p.name));
    setFailure("");
    void queryClient.invalidateQueries({ queryKey: adminKeys.partners });
  };
  const disable = async (p: Partner) => {
    try {
      saved("Disabled {name}.")(await disablePartner(p.id));
    } catch (e) {
      if (isUnauthorized(e)) onUnauthorized();
      setFailure(`Could not disable ${p.name}: ${failureText(e)}`);
    }
  };
  return (
    <section aria-labelledby="partners-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="partners-heading" className="text-base font-semibold text-gray-900">
          Partners
        </h2>
        <Button variant="outline" aria-expanded={adding} onClick={() => setAdding(!adding)}>
          {adding ? "Close" : "Add a partner"}
        </Button>
      </div>
      <Notice notice={notice} />
      {failure && <FormError>{failure}</FormError>}
      {adding && (
        <PartnerForm
          save={createPartner}
          onUnauthorized={onUnauthorized}
          onSaved={(p) => {
            saved("Added {name}.")(p);
            setAdding(false);
            setOpenId(p.id);
          }}
        />
      )}
      <Loaded query={list} loading="Loading partners…" failed="Could not load the partners">
        {(partners) =>
          partners.length === 0 ? (
            <p className="text-gray-700">No partners yet.</p>
          ) : (
            <ul aria-label="Partners" className="flex flex-col gap-2">
              {partners.map((p) => (
                <li key={p.id} className="rounded-md border border-gray-200 bg-white p-3">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <div>
                      <h3 className="font-semibold text-gray-900">{p.name}</h3>
                      <p className="text-sm text-gray-700">
                        {[KIND_LABELS[p.kind], p.slug, p.disabled ? "disabled" : `${p.allowed_origins.length} ${p.allowed_origins.length === 1 ? "site" : "sites"}`].join(" · ")}
                      </p>
                    </div>
                    <div className="flex gap-2">
                      <Button variant="outline" aria-expanded={openId === p.id} onClick={() => setOpenId(openId === p.id ? null : p.id)}>
                        {openId === p.id ? "Close" : "Edit"} <span className="sr-only">{p.name}</span>
                      </Button>
                      {!p.disabled && (
                        <Button variant="outline" onClick={() => void disable(p)}>
                          Disable <span className="sr-only">{p.name}</span>
                        </Button>
                      )}
                    </div>
                  </div>
                  {openId === p.id && (
                    <>
                      <PartnerForm key={p.id} partner={p} save={(input) => editPartner(p.id, input)} onUnauthorized={onUnauthorized} onSaved={saved("Saved {name}.")} />
                      <KeysSection partner={p} />
                      <WebhooksSection partner={p} />
                      <PartnerReport partnerId={p.id} />
                    </>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
