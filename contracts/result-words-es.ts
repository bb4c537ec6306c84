/**
 * The Spanish of contracts/result-words.ts (outcomes, proofs, checked fields and their findings), in the
 * terms of docs/glossary-es.md: used by the app's Spanish catalogue and by the consumer API's Spanish
 * upload message, so both say it in the same words. A module of its own, so that an English page's
 * script does not carry it.
 */
import type { ResultWords } from "./result-words.ts";

export const spanishResultWords: ResultWords = {
  outcomes: { Negative: "Negativo", Positive: "Positivo", Inconclusive: "No concluyente" },
  proof: { document: "revisión del documento", link: "obtenido del laboratorio", unknownIssuer: "emisor desconocido", unknownCountry: "país desconocido", signed: (scheme, issuer) => `firmado (${scheme}, ${issuer})` },
  fields: { "First Name": "Nombre", "Last Name": "Apellido", "Date of Birth": "Fecha de nacimiento", "Signed QR Code": "Código QR firmado", "Manual Review": "Revisión manual" },
  signedCodeFields: { Name: "Nombre", "Date of Birth": "Fecha de nacimiento", Collected: "Toma de muestra", Test: "Prueba", Result: "Resultado" },
  difference: (pdf, profile) => `PDF: ${pdf}; perfil: ${profile}`,
  acceptedOnReview: "Aceptado en la revisión por un revisor",
  acceptedOnReviewAt: (at) => `Aceptado en la revisión por un revisor el ${at}`,
  signedCodeDifference: (field, qr, pdf) => `${field} (en el QR: ${qr}; en el PDF: ${pdf})`,
  unknownResultCode: (code) => `código desconocido ${code}`,
};
