import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { email, required, z } from "../../lib/validation";
import { adminSignIn } from "./api/admin-sign-in";
import { EMAIL_REQUIRED, PASSWORD_REQUIRED, SIGN_IN_FAILED } from "./messages";
import type { Moderator } from "./types";

const schema = z.object({ email: email(EMAIL_REQUIRED), password: required(PASSWORD_REQUIRED) });
type Values = z.infer<typeof schema>;

/** The moderator sign-in form; moderators are created with `locator moderators add EMAIL`. */
export function SignInForm({ onSignedIn }: { onSignedIn: (moderator: Moderator) => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { email: "", password: "" },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = async (values: Values) => {
    setFailure(null);
    try {
      onSignedIn(await adminSignIn({ email: values.email.trim(), password: values.password }));
    } catch (error) {
      setFailure(`${SIGN_IN_FAILED}: ${failureText(error)}`);
    }
  };

  return (
    <main className="mx-auto flex w-full max-w-sm flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-semibold text-gray-900">Moderator sign-in</h1>
      <p className="text-gray-700">Review store claims before they appear on the map.</p>
      <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="flex flex-col gap-3" aria-label="Moderator sign-in">
        <Field label="Email" type="email" autoComplete="username" autoFocus error={errors.email?.message} {...register("email")} />
        <Field label="Password" type="password" autoComplete="current-password" error={errors.password?.message} {...register("password")} />
        {failure && <FormError>{failure}</FormError>}
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Signing in…" : "Sign in"}
        </Button>
      </form>
    </main>
  );
}
