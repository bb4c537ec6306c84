/**
 * The route table: SPEC §2 path for path, exact matches, catch-all last.
 * Both readings of the open routes are served (/confirmemail and /consumer/confirmemail, ...).
 * Guarded screens sit under one layout route whose middleware enforces the login.
 */
import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  index("routes/intro.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),
  route("registration", "routes/registration.tsx"),
  route("confirmemail", "routes/confirmemail.tsx"),
  route("consumer/confirmemail", "routes/confirmemail.tsx", { id: "consumer-confirmemail" }),
  route("confirmaccount", "routes/confirmaccount.tsx"),
  route("requestpasswordchange", "routes/requestpasswordchange.tsx"),
  route("consumer/requestpasswordchange", "routes/requestpasswordchange.tsx", { id: "consumer-requestpasswordchange" }),
  route("resetpassword", "routes/resetpassword.tsx"),
  route("consumer/resetpassword", "routes/resetpassword.tsx", { id: "consumer-resetpassword" }),
  route("terms", "routes/terms.tsx"),
  route("privacy", "routes/privacy.tsx"),
  layout("routes/guarded.tsx", [
    route("checkaccountstatus", "routes/checkaccountstatus.tsx"),
    route("checkconfirmation", "routes/checkconfirmation.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
