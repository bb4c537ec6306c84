/**
 * The long prose pages: the Terms of Service, the Privacy Policy (docs/product/screens.md §2
 * /registration) and how safe windows are counted (docs/product/screens.md §2, docs/product/labs.md
 * §10.7). All of it is ours: the product rules name these pages but do not word them.
 *
 * Each page is one object of whole paragraphs and list items, named for what they say; the route
 * decides their order and markup, and its loader sends the object of the request's language
 * (docs/architecture/behaviour.md §4 "Language"), so a translation is checked key by key
 * (app/messages/catalogues.ts) and never split into sentence fragments. Where a sentence carries
 * markup, its entry names the marked-up words by a placeholder (`{button}`) that the route fills
 * (app/components/Prose.tsx); each language's entry has the same placeholders
 * (tests/unit/i18n-prose.test.ts).
 */
import type { WindowHoursTable } from "../../contracts/rules.ts";
import { productName } from "./shell.ts";

/** /terms: what creating an account agrees to. */
export const termsPage = {
  pageTitle: `Terms of Service · ${productName}`,
  title: "Terms of Service",
  intro: `${productName} shows, for a limited time, that you had a recent negative COVID-19 test. By creating an account you agree that:`,
  adult: "You are at least 18 years old and the details in your profile are your own and correct.",
  originalPdf: "You upload only the original PDF your testing lab gave you. Faxed, saved, printed or edited files are not accepted.",
  notDiagnosis: "A safe window is information about a past test, not a medical diagnosis or a guarantee that you are not infectious.",
  followers: "The people you allow to follow you see your name and your safe window, never your date of birth.",
  leaving: `You can stop using ${productName} at any time. You can download your data, and delete your account with everything in it, yourself in My Settings; the Privacy Policy says what is deleted and when backups forget it.`,
  back: "Back to Create Account",
} as const;

/** /privacy: what is kept, who sees it, and how it is downloaded and deleted. */
export const privacyPage = {
  pageTitle: `Privacy Policy · ${productName}`,
  title: "Privacy Policy",
  intro: "We keep only what the service needs, and we do not sell it.",
  email: "Your email address and a hash of your password, to sign you in. We never store your password itself.",
  profile: "Your name, date of birth and postal code, to match your test results to you.",
  results: "The test result PDFs you upload and what we read from them, to compute your safe window.",
  resultLinks:
    "When you add a result by link, the result we fetch from your testing company's site and the site's name. The link itself is used once for that fetch and not kept.",
  cookies: "A session cookie while you are signed in, and a cookie that remembers your email address on this device.",
  checkIns:
    "When a venue enters a check-in code you showed it: the venue, the time, what it saw (your name and whether your safe window was open), whether you were checked in, and your rating. Your position, when you search for locations near you, is used for that search and not kept.",
  /** `minutes`: how long a check-in code works (contracts/consumer/venues.ts checkinCodeMinutes). */
  whoSees: (minutes: number) =>
    `Your date of birth is never shown to other people. Only people whose follow request you confirmed see your safe window, and a venue sees it only through a check-in code you chose to show, which works once, for ${minutes} minutes.`,
  passTitle: `The ${productName} Pass`,
  passShows:
    "Your pass shows anyone who scans it your initials, your birthday without the year, whether your safe window is strong or weak, until when, and when the pass was issued. Nothing else: not your name, your year of birth, your product ID, your lab or your result.",
  /** `hours`: the longest window (contracts/rules.ts windowHours). */
  passLives: (hours: number) =>
    `A pass stays valid until your window ends, at most ${hours} hours after your test, even if the result is later found invalid or you delete your account: a pass carries no number, so it cannot be withdrawn. Each time you open your pass you get a new one.`,
  passScreenshot: "Someone else could show a screenshot of your pass. That is why the person checking compares the initials and birthday with a photo ID.",
  passChecks:
    "We learn nothing of a check made in a browser with JavaScript: the pass is checked on the checker's device. A check made without JavaScript sends the pass to us; we check it and forget it, and keep no record or log of it.",
  yoursTitle: "Your data is yours",
  /** `{button}`: the Download my data button's name (downloadMyData), emphasized. */
  download:
    "{button} in My Settings gives you a zip file with your profile, every test result with its image and the original PDF, your disputes with our responses, the people you follow and who follow you, and your visits to venues.",
  /** `{button}`: the Delete my account button's name (deleteAccountButton), emphasized. */
  deletion:
    "{button} in My Settings, confirmed with your password, deletes at once your account, your profile, your test results with their images and PDFs, your disputes, your follow relations (the people on the other side no longer see you) and your visits, the emails we sent you that we still keep, and every sign-in on every device. We send a confirmation to your email address; our copy of it is deleted once it is sent. It cannot be undone.",
  backups:
    "Backups of this service made before you deleted your account still hold what was in it then: your account, profile, test results with their images and PDFs, disputes, follow relations, visits and the emails we kept. Backups are not changed; each is deleted within 30 days of being made, so 30 days after you delete your account no copy is left.",
  back: "Back to Create Account",
} as const;

/** /testing-philosophy: what a safe window is and how long each test method's windows last. */
export const testingPhilosophyPage = {
  pageTitle: `How we count safe windows · ${productName}`,
  title: "How we count safe windows",
  intro:
    "A safe window says for how long a recent negative COVID-19 test still counts. It is not a diagnosis: a test shows how things were when your sample was taken, and that tells less and less as time goes by. So every window closes.",
  windowsTitle: "Two windows: strong and weak",
  windowsIntro: "Each negative result opens two windows, counted from the moment your specimen was collected (not from when the lab reported it):",
  tableCaption: "Window lengths by test method",
  methodHeader: "Test method",
  strongHeader: "Strong window",
  weakHeader: "Weak window",
  molecular: "Molecular (NAAT: PCR, RT-PCR, isothermal such as ID NOW)",
  antigen: "Rapid antigen",
  /** The hours of contracts/rules.ts windowHours, by method. */
  sources: (table: WindowHoursTable) =>
    `The weak window follows the EU Digital COVID Certificate template (${table.NAAT.weakHours} hours for NAAT, ${table.antigen.weakHours} for antigen); the strong window follows the strictest widely used national rule (${table.NAAT.strongHours} and ${table.antigen.strongHours} hours). A window is open until the exact minute it ends.`,
  countsTitle: "What counts",
  negativeOnly: "Only a negative result opens a window. A positive result closes any window you had. Inconclusive or void results open none.",
  mostRecent: "Your window is that of your most recent valid result, by the time the sample was taken.",
  originalOnly: "Only the original PDF from the testing lab counts: not a scan, fax, photo, printout, or a file saved or edited after the lab issued it.",
  namesMatch: "Your first name, last name and date of birth must match the report exactly. If they differ, for example by a typo, you can dispute the result.",
  back: "Back to My Safe Window",
} as const;

export const windowLengthInHours = (hours: number) => `${hours} hours`;
