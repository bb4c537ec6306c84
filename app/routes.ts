/**
 * The route table: docs/product/screens.md §2 path for path, exact matches, catch-all last.
 * Both paths of the open routes are served (/confirmemail and /consumer/confirmemail, ...).
 * The signed-in screens sit under two layout routes side by side, each enforcing the login in its
 * middleware: guarded.tsx for the profile's steps, main.tsx for the tabbed main screens (with the
 * tab bar and the enabledScreens check). Side by side rather than one inside the other, so that a
 * main screen is one route level shallower (React Router matches, renders and hydrates every level).
 * React Router tries the routes of one rank (every one-segment path) in this order, twice per
 * request, and each tried before the one that fits costs a match: so Sign In and the main screens
 * come first, the three most asked for at the head, and the public pages (most answered from the
 * shared page cache) and the profile's steps after them.
 */
import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { consumerAliasPath, paths } from "./paths";

export default [
  index("routes/intro.tsx"),
  route(paths.login, "routes/login.tsx"),
  layout("routes/main.tsx", [
    route("safewindow", "routes/safewindow.tsx"),
    route(paths.mytests, "routes/mytests.tsx"),
    route("people", "routes/people.tsx"),
    route("safewindow/pass", "routes/pass.tsx"),
    route("safewindow/pass.pdf", "routes/pass.pdf.tsx"),
    route("testdetail", "routes/testdetail.tsx"),
    route("testresultviewer", "routes/testresultviewer.tsx"),
    route("testresultviewer/image", "routes/testresultimage.tsx"),
    route("myfun", "routes/myfun.tsx"),
    route("locations", "routes/locations.tsx"),
    route("checkin", "routes/checkin.tsx"),
    route("follower", "routes/follower.tsx"),
    route("following", "routes/following.tsx"),
    route("addpublisher", "routes/addpublisher.tsx"),
    route("settings", "routes/settings.tsx"),
    route("personalinfo", "routes/personalinfo.tsx"),
    route("settings/data", "routes/settings.data.tsx"),
    route("reviews", "routes/reviews.tsx"),
    route("reviews/dispute", "routes/reviews.dispute.tsx"),
    route("reviews/image", "routes/reviews.image.tsx"),
    route("reviews/history", "routes/reviews.history.tsx"),
  ]),
  route("logout", "routes/logout.tsx"),
  route("wipe", "routes/wipe.tsx"),
  route("cookies", "routes/cookies.tsx"),
  route("timezone", "routes/timezone.tsx"),
  route("language", "routes/language.tsx"),
  route(paths.registration, "routes/registration.tsx"),
  route(paths.confirmemail, "routes/confirmemail.tsx"),
  route(consumerAliasPath(paths.confirmemail), "routes/confirmemail.tsx", { id: "consumer-confirmemail" }),
  route(paths.confirmaccount, "routes/confirmaccount.tsx"),
  route(paths.requestpasswordchange, "routes/requestpasswordchange.tsx"),
  route(consumerAliasPath(paths.requestpasswordchange), "routes/requestpasswordchange.tsx", { id: "consumer-requestpasswordchange" }),
  route(paths.resetpassword, "routes/resetpassword.tsx"),
  route(consumerAliasPath(paths.resetpassword), "routes/resetpassword.tsx", { id: "consumer-resetpassword" }),
  route("terms", "routes/terms.tsx"),
  route("privacy", "routes/privacy.tsx"),
  route("testing-philosophy", "routes/testing-philosophy.tsx"),
  route(paths.verify, "routes/verify.tsx"),
  route(".well-known/safewindow-pass-keys", "routes/pass-keys.tsx"),
  layout("routes/guarded.tsx", [
    route("checkaccountstatus", "routes/checkaccountstatus.tsx"),
    route(paths.checkconfirmation, "routes/checkconfirmation.tsx"),
    route("yourinfo", "routes/yourinfo.tsx"),
    route("welcome", "routes/welcome.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
