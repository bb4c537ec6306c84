/** Spanish of app/messages/pass.ts (the SafeWindow Pass and its checker), in the terms of docs/glossary-es.md. */
import { productName } from "./shell.ts";

export const passTitle = `Pase ${productName}`;
export const passLink = "Mostrar mi pase";
export const passOffer = `Demuestre su ventana segura a cualquiera, también fuera de ${productName}: escanean su pase con la cámara del teléfono.`;
export const passHint = "Cualquiera puede comprobar este pase con la cámara de un teléfono, sin cuenta. Solo muestra sus iniciales, su cumpleaños sin el año y hasta cuándo está abierta su ventana segura.";
export const passQrLabel = (initials: string) => `Código QR del pase ${productName} de ${initials}`;
export const passInitials = "Iniciales";
export const passBirthday = "Cumpleaños";
export const passStrongUntil = "Fuerte hasta";
export const passWeakUntil = "Débil hasta";
export const passIssued = "Emitido";
export const passPrint = "Imprimir o guardar como PDF";
export const passFresh = "Cada vez que abre esta página, obtiene un pase nuevo. Un pase termina con su ventana segura y no se puede retirar antes.";
export const passNoWindow = "Su ventana segura no está abierta ahora, así que no hay ningún pase que mostrar. Suba un resultado de prueba negativo reciente para abrir una.";
export const passBackToWindow = "Volver a Mi ventana segura";
export const passPdfCheckLine = (address: string) => `Escanee con la cámara de un teléfono, o abra ${address} y escanee allí. Coteje las iniciales y el cumpleaños con una identificación con foto.`;
export const passPdfFileName = "pase-safewindow.pdf";

export const verifyTitle = `Comprobar un pase ${productName}`;
export const verifyIntro = `Escanee el código QR de un pase ${productName} o pegue su texto. No se guarda nada de lo que compruebe.`;
export const verifyOnlyHere = (host: string) => `Un pase auténtico solo se comprueba en ${host}. Si un código escaneado abrió otra dirección, no es nuestra.`;
export const verifyDomainLabel = "Está comprobando en";
export const verifyPasteLabel = "El texto del pase, o la dirección que abre su código QR";
export const verifyPhotoLabel = "O una foto del código QR";
export const verifyPhotoHint = (megabytes: number) => `Una foto JPEG, PNG o WebP, de hasta ${megabytes} MB.`;
export const verifyCheck = "Comprobar";
export const verifyCheckAnother = "Comprobar otro pase";
export const verifyNothingGiven = "Pegue el texto de un pase o elija una foto de su código QR.";
export const verifyStrongOnly = "Aceptar solo ventanas seguras fuertes";
export const verifyStrongOnlyHint = "Se recuerda en este dispositivo. Una ventana segura débil se muestra entonces como no aceptada.";
export const verifySave = "Guardar";
export const verifyStrong = "Fuerte";
export const verifyWeak = "Débil";
export const verifyNotValid = "No válido";
export const verifyWeakRefused = "Débil: no se acepta aquí, donde solo se aceptan ventanas seguras fuertes.";
export const verifyUntil = "hasta";
export const verifyIssuedAt = "Emitido";
export const verifyCompareId = "Coteje las iniciales y el cumpleaños con una identificación con foto.";
export const verifyReasons = {
  expired: "Este pase ha vencido.",
  not_yet_valid: "Este pase se emitió en el futuro: revise el reloj de este dispositivo.",
  other_issuer: "Este pase lo emitió otra dirección, no esta.",
  unknown_key: "Este pase está firmado de una forma que no reconocemos: no es uno de los nuestros, o es muy antiguo.",
  damaged: "Esto no es un pase, o está dañado o incompleto.",
};
export const verifyPhotoReasons = (megabytes: number) => ({
  not_image: "Ese archivo no es una foto que podamos leer. Elija una foto JPEG, PNG o WebP.",
  too_large: `Esa foto es demasiado grande. Elija una de hasta ${megabytes} MB.`,
  too_many_pixels: "Esa foto tiene demasiados píxeles. Elija una más pequeña.",
  no_code: "No encontramos ningún código QR en esa foto. Tómela de nuevo, más cerca y enfocada.",
  busy: "Estamos leyendo muchas fotos en este momento. Inténtelo de nuevo en un momento.",
});
export const verifyUnavailable = "Ahora no se pueden comprobar pases aquí. Inténtelo de nuevo más tarde.";
export const verifyClockOff = (minutes: number) =>
  `El reloj de este dispositivo difiere del nuestro en más de ${minutes} minutos, así que aquí un pase podría comprobarse mal. Ponga el reloj en hora antes de comprobar pases.`;
export const verifyTolerance = (minutes: number) => `Se admite una diferencia de hasta ${minutes} minutos entre relojes.`;
export const verifyTooMany = "Demasiadas comprobaciones desde esta dirección. Espere un minuto.";
export const scanStart = "Escanear con la cámara";
export const scanStop = "Detener la cámara";
export const scanStarting = "Iniciando la cámara…";
export const scanDenied = "La cámara no está permitida. Permítala en los ajustes del navegador o pegue el texto del pase.";
export const scanUnavailable = "Aquí no se puede usar ninguna cámara. Pegue el texto del pase o elija una foto.";
export const scanHint = "Apunte la cámara al código QR.";
export const scanVideoLabel = "Vista de la cámara";
