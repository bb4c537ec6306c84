/**
 * Venues and their forms (docs/product/data.md §5 "Other helper rules"): the product rules say messages exist
 * for these required fields without giving their wording, so all are "ours", in the tone of the
 * profile's ("First name is required").
 */
import { productName } from "./shell.ts";
export const mobileNumberRequired = "Mobile number is required";
export const businessNameRequired = "Business name is required";
export const addressRequired = "Address is required";
export const cityRequired = "City is required";
export const stateRequired = "State is required";
export const phoneRequired = "Phone is required";
export const locationNameRequired = "Location name is required";
export const phoneInvalid = "Please enter a 10-digit phone number, like (206) 555-0123."; // ours
export const timeInvalid = "Please enter a time as HH:MM, from 00:00 to 24:00."; // ours
export const under21 = "You must be at least 21 years of age."; // ours (docs/product/data.md §5: age check 21)
// docs/product/messages.md §8: "Further defined messages exist for ... business info save errors, ... location
// create and save failures, and billing load failure. Their exact wording is not shown." All ours.
export const businessInfoSaveFailed = "We could not save your business information. Please try again.";
export const locationCreateFailed = "We could not create the location. Please try again.";
export const locationSaveFailed = "We could not save the location. Please try again.";
export const billingLoadFailed = "We could not load your billing details. Please try again.";
export const subscriptionFailed = "We could not change your subscription. Please try again.";
export const invoiceRetryFailed = "We could not charge this invoice again. Please try again.";
export const roleChangeFailed = "We could not change this person's role. Please try again.";

// The venue screens (docs/venues.md): ours.
export const locationsTitle = "Locations";
export const myFunTitle = "My Fun";
export const checkinTitle = "Venue Check-In";
export const locationSearchFailed = "We could not search for locations. Please try again.";
export const zipInvalid = "Please enter a 5-digit ZIP code.";
export const noLocationsFound = "No locations found within that distance. Try a larger distance.";
export const positionUnavailable = "We could not get your location. Search by ZIP code instead.";
export const noVisits = "No visits yet. When a venue checks your safe window, the visit shows here.";
export const ratingFailed = "We could not save your rating. Please try again.";
export const ratingSaved = "Thank you for rating your visit.";
export const checkinCodeFailed = "We could not make a check-in code. Please try again.";
/** `minutes`: how long a check-in code works (contracts/consumer/venues.ts checkinCodeMinutes). */
export const checkinCodeHint = (minutes: number) =>
  `Show this code to the venue. It works once, for ${minutes} minutes, and only shows your name and whether your safe window is open.`;
export const checkinLookupFailed = "We could not check this code. Please try again.";
export const checkinCodeNotFound = "There is no such check-in code. Check the code with the visitor.";
export const checkinTooManyAttempts = (minutes: number) =>
  `Too many codes that do not exist were entered. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
export const checkinCodeInvalid = "A check-in code is 6 letters and digits.";
export const checkInFailed = "We could not check this visitor in. Please try again.";
export const checkedIn = "Checked in.";
export const notLocationAdministrator = "You do not administer this location.";
// What a venue saw of a window (docs/venues.md "Check-in"): Venue Check-In's answer and My Fun's visits.
export const strongWindowSeen = "Strong safe window";
export const weakWindowSeen = "Weak safe window";
export const noOpenWindowSeen = "No open safe window";

// The words of My Fun, Venue Check-In and Locations (docs/venues.md): ours.
export const myFunPageTitle = `My Fun · ${productName}`; // the document title
export const checkinPageTitle = `Venue Check-In · ${productName}`; // the document title
export const locationsPageTitle = `Locations · ${productName}`; // the document title
export const visitsLabel = "Visits";
export const checkedLabel = "Checked:";
export const visitCheckedIn = "Checked in";
export const visitNotCheckedIn = "Not checked in";
export const yourRatingOf = (venue: string) => `Your rating of ${venue}`;
export const stars = (count: number) => `${count} ${count === 1 ? "star" : "stars"}`;
export const saveRating = "Save rating";
export const ratingRequired = "Choose 1 to 5 stars.";
export const windowUntil = "Until"; // before the end of the window
export const noOpenWindowVisitor = "This visitor has no open safe window.";
export const checkedAt = "checked"; // before when the venue checked the window
export const checkInButton = "Check in";
export const locationLabel = "Location";
export const visitorCodeLabel = "Visitor's check-in code";
export const nextVisitor = "Next visitor";
export const lookUp = "Look up";
/** `minutes`: how long a check-in code works (contracts/consumer/venues.ts checkinCodeMinutes). */
export const checkinPageHint = (minutes: number) =>
  `The visitor shows a code from their My Safe Window page. It works once, for ${minutes} minutes. You see their name and whether their safe window is open, never their date of birth.`;
export const zipCodeLabel = "ZIP code";
export const withinLabel = "Within";
export const milesChoice = (miles: number) => `${miles} miles`;
export const locationSearchButton = "Search";
export const findingYou = "Finding you…";
export const nearMe = "Near me";
export const locationsWithin = (count: number, miles: number, zip: string) =>
  `${count} ${count === 1 ? "location" : "locations"} within ${miles} miles of ${zip}.`;
export const locationsNearYou = (count: number, miles: number) => `${count} ${count === 1 ? "location" : "locations"} within ${miles} miles of you.`;
export const locationsFoundLabel = "Locations found";
/** `miles` with one decimal. */
export const distanceMiles = (miles: string) => `${miles} mi`;
