/**
 * Spanish of app/messages/results.ts (uploads, the test list, test detail and the dispute), in the terms
 * of docs/glossary-es.md.
 */
import { productName } from "./shell.ts";

export const resultErrorsHeading = "Este resultado de prueba tuvo los siguientes errores:";
export const resultProcessed = "Este resultado de prueba se procesó correctamente.";
export const resultAcceptedOnReview = "Revisamos su reclamación y aceptamos este resultado de prueba.";
export const resultReviewedDifferences = "Las diferencias que revisamos:";
export const disputeIntro = "Podemos ayudarle a resolver diferencias menores en los documentos enviados, como errores de escritura. Descríbalas abajo y envíe.";
export const disputeFollowUp = "Si tiene alguna otra pregunta, comuníquese con nosotros haciendo clic en el botón de abajo.";
export const disputeThanks = "Gracias por enviar su reclamación. Le escribiremos a la dirección de correo electrónico que nos dio cuando hayamos revisado su reclamación. Por lo general podemos revisar todas las reclamaciones dentro de las 3 horas siguientes a su envío.";
export const disputeCommentRequired = "Describa la diferencia que desea que revisemos.";
export const disputeCommentTooLong = "Use como máximo 1000 caracteres.";
export const disputeFailed = "No pudimos enviar su reclamación. Inténtelo de nuevo.";
export const disputeNotOffered = "No se puede presentar una reclamación sobre este resultado: solo se puede reclamar, una vez, un resultado que no pudimos validar.";
export const guidelinesTitle = "Antes de agregar";
export const uploadRuleOriginal = "Suba solo el PDF original que recibió de su empresa de pruebas.";
export const uploadRuleNoCopies = "No se aceptan PDF enviados por fax, guardados de nuevo ni impresos.";
export const uploadRuleMatch = "Su nombre, apellido y fecha de nacimiento deben coincidir exactamente con el resultado de prueba para validarlo.";
export const uploadFileRequired = "Elija el archivo PDF de su resultado de prueba.";
export const uploadNotPdf = "Elija un archivo PDF (.pdf).";
export const uploadTooLarge = (megabytes: number) => `Ese archivo pesa más de ${megabytes} MB. Suba el PDF original de su empresa de pruebas.`;
export const uploadFailed = "No pudimos procesar su archivo en este momento. Inténtelo de nuevo en un minuto.";
export const uploadBusy = (seconds: number) =>
  `Estamos revisando muchos resultados de prueba en este momento, así que no pudimos revisar el suyo. Inténtelo de nuevo en ${seconds} ${seconds === 1 ? "segundo" : "segundos"}.`;
export const noResults = "Todavía no ha agregado ningún resultado de prueba.";
export const resultLinkRequired = "Pegue el enlace a su resultado que aparece en el mensaje de su empresa de pruebas.";
export const resultLinkTooLong = "Ese enlace es demasiado largo. Pegue el enlace tal como se lo envió su empresa de pruebas.";
export const resultLinkFailed = "No pudimos obtener su resultado en este momento. Inténtelo de nuevo en un minuto.";
export const resultLinkHint = "Pegue el enlace del correo electrónico o mensaje de texto de su empresa de pruebas; obtenemos el resultado del propio sitio del laboratorio.";
export const fetchedFromLab = (host: string) => `Obtenido del propio sitio del laboratorio (${host}), así que no pudo haberse cambiado durante el envío.`;
export const previousPage = "Página anterior";
export const nextPage = "Página siguiente";
export const pageOf = (page: number, pageCount: number) => `Página ${page} de ${pageCount}`;
export const pagesOfResult = "Páginas del resultado";
export const onlyFirstPage = "Aquí solo se puede mostrar la primera página de este resultado.";
export const resultStateLabels = {
  strong: "Fuerte: dentro de la ventana segura fuerte",
  weak: "Débil: dentro de la ventana segura débil",
  expired: "Vencido: fuera de la ventana segura",
  disputed: "No válido, reclamación presentada",
  invalid: "No válido",
} as const;
export const resultStateWords = {
  strong: "Fuerte",
  weak: "Débil",
  expired: "Vencido",
  disputed: "En reclamación",
  invalid: "No válido",
} as const;
export const proofIconLabels = {
  signed: "Resultado firmado: se verificó la firma de su código QR",
  link: "Obtenido del propio sitio del laboratorio",
  document: "Revisado como documento",
  disagrees: "Advertencia: su código QR firmado no coincide con su texto",
} as const;
export const proofDisagrees = (label: string) => `${label}, que no coincide con el texto del informe`;
export { spanishResultWords as resultWords } from "../../../contracts/result-words-es.ts";
export const unverifiedSignature = (scheme: string) =>
  `Su código QR lleva una firma ${scheme} que no se pudo vincular a un emisor conocido, así que el resultado se revisó como documento.`;

export const myTestsTitle = "Mis pruebas";
export const myTestsPageTitle = `Mis pruebas · ${productName}`;
export const addResultHeading = "Agregar un resultado de prueba";
export const resultFileLabel = "PDF del resultado de prueba";
export const uploadButton = "Subir";
export const uploadingButton = "Subiendo…";
export const addByLinkHeading = "Agregar por enlace";
export const resultLinkLabel = "Enlace a su resultado";
export const addByLinkButton = "Agregar por enlace";
export const fetchingButton = "Obteniendo…";
export const yourResultsHeading = "Sus resultados";
export const resultListLabel = "Resultados de prueba";
export const pdfOnly = "Solo archivos PDF.";
export const guidelinesUnderstood = "Entiendo";
export const safeWindowTitle = "Mi ventana segura";
export const safeWindowPageTitle = `Mi ventana segura · ${productName}`;
export const productIdLabel = "ID de producto";
export const howWeCountSafeWindowsLink = "Cómo calculamos las ventanas seguras";
export const checkinHeading = "Registrar su entrada en un local";
export const checkinCodeLabel = (spelled: string) => `Código de registro ${spelled}`;
export const checkinQrLabel = (code: string) => `Código QR del código de registro ${code}`;
export const validUntil = "Válido hasta";
export const checkinUnavailable = "Los códigos de registro no están disponibles aquí.";
export const newCheckinCode = "Nuevo código de registro";
export const showCheckinCode = "Mostrar un código de registro";
export const cardLabel = (fullName: string) => `Ventana segura de ${fullName}`;
export const windowLabel = "Ventana";
export const strongWindow = "Fuerte";
export const weakWindow = "Débil";
export const strongUntil = "Fuerte hasta";
export const weakUntil = "Débil hasta";
export const basedOn = "Basada en";
export const timesIn = (zone: string) => `Horas en ${zone}`;
export const submitTest = "Subir un resultado de prueba";
export const proofLabel = "Prueba de autenticidad";
export const testDetailPageTitle = `Detalle de la prueba · ${productName}`;
export const testResultPageTitle = `Resultado de prueba · ${productName}`;
export const resultHeading = (publicName: string) => `Resultado de ${publicName}`;
export const issuedBy = (company: string) => `Emitido por ${company}`;
export const checksLoadFailed = (detail: string) => `No se pudieron cargar las comprobaciones de este resultado: ${detail}`;
export const testDateLabel = "Fecha de la prueba:";
export const resultTabsLabel = "Resultado de prueba";
export const detailsTab = "Detalles";
export const disputeTab = "Reclamación";
export const disputeButton = "Presentar una reclamación";
export const openLargeView = "Abrir la vista grande del resultado";
export const resultPageAlt = (page: number, publicName: string) => `Página ${page} del resultado de ${publicName}`;
export const resultPageLargeAlt = (page: number, publicName: string) => `Página ${page} del resultado de ${publicName}, en grande`;
export const disputeMailSubject = (publicName: string, date: string) => `Reclamación: resultado de ${publicName} del ${date}`;
export const backToMyTests = "Volver a Mis pruebas";
export const yourSubmission = "Lo que usted envió";
export const ourResponse = "Nuestra respuesta";
export const contactButton = "Comuníquese con nosotros";
export const describeDifference = "Describa la diferencia";
export const largeViewLabel = "Vista grande del resultado";
export const closeButton = "Cerrar";
export const fullSize = "Tamaño completo";
export const fitToScreen = "Ajustar a la pantalla";
export const backToTestDetail = "Volver al detalle de la prueba";
export const backToTestDetailFullSize = "Volver al detalle de la prueba (la página está a tamaño completo: desplácese para verla entera)";
export const fullSizeFrameLabel = "La página a tamaño completo; desplácese para verla entera";

const subirOriginal = "Suba el PDF original tal como lo recibió de su empresa de pruebas.";
const enlaceComoLoEnvio = "Pegue el enlace a su resultado tal como se lo envió su empresa de pruebas.";
const enlaceOSubir = "Revise el enlace, o descargue el PDF de su empresa de pruebas y súbalo.";
export const resultRefusalReasons = {
  no_file: "No recibimos ningún archivo. Elija el PDF de su resultado de prueba y vuelva a subirlo.",
  not_pdf: `Este archivo no es un PDF. ${subirOriginal}`,
  archive: "Este archivo es un archivo ZIP, no un PDF. Ábralo y suba el PDF que contiene, tal como se lo envió su empresa de pruebas.",
  wrapped: `Este archivo es otro tipo de archivo con un PDF dentro, así que no podemos saber si es el original. ${subirOriginal}`,
  appended: `Este archivo tiene otros datos añadidos después del final del PDF, así que no es el archivo que emitió su empresa de pruebas. ${subirOriginal}`,
  javascript: `Este PDF contiene JavaScript, que ningún resultado de prueba de una empresa de pruebas tiene, así que se modificó después de emitirse. ${subirOriginal}`,
  launch: `Este PDF intenta abrir otro programa o archivo, algo que ningún resultado de prueba de una empresa de pruebas hace, así que se modificó después de emitirse. ${subirOriginal}`,
  embedded_file: `Este PDF tiene otros archivos adjuntos dentro, que ningún resultado de prueba de una empresa de pruebas tiene, así que se modificó después de emitirse. ${subirOriginal}`,
  actions: `Este PDF ejecuta acciones por sí solo al abrirse o verse, algo que ningún resultado de prueba de una empresa de pruebas hace, así que se modificó después de emitirse. ${subirOriginal}`,
  corrupt: "Este PDF está dañado o incompleto y no se puede leer. Descárguelo de nuevo de su empresa de pruebas y suba la copia nueva.",
  too_complex: `Este PDF es demasiado grande o complejo para que lo revisemos. ${subirOriginal}`,
  duplicate: "Ya subió este resultado de prueba; está en su lista de pruebas. No hace falta subirlo de nuevo.",
  no_text: `Este PDF no tiene texto legible: parece escaneado, enviado por fax o fotografiado. Solo podemos revisar el PDF original. ${subirOriginal}`,
  printed: `Este PDF se imprimió o se guardó de nuevo con otro programa, así que no podemos saber si es el original. ${subirOriginal}`,
  changed: `Este PDF se modificó después de que la empresa de pruebas lo emitiera. ${subirOriginal}`,
  link_invalid: "Ese no es un enlace que podamos abrir. Pegue el enlace a su resultado tal como se lo envió su empresa de pruebas; empieza por https://.",
  link_not_https: "Ese enlace no es seguro (no empieza por https://), así que no pudimos estar seguros de que el resultado venga de su empresa de pruebas. Pegue el enlace seguro que le envió su empresa de pruebas.",
  link_address: `Ese enlace lleva a una dirección de la que no obtenemos resultados. ${enlaceComoLoEnvio}`,
  link_redirect: `El sitio de su empresa de pruebas nos envió a otro sitio, así que no pudimos estar seguros de que el resultado venga de su empresa de pruebas. ${enlaceOSubir}`,
  link_unreachable: "No pudimos llegar al sitio de resultados de su empresa de pruebas. Inténtelo de nuevo más tarde, o descargue el PDF y súbalo.",
  link_not_found: `El sitio de su empresa de pruebas no tiene ningún resultado en ese enlace; puede que el enlace haya caducado. ${enlaceOSubir}`,
  link_slow: "El sitio de resultados de su empresa de pruebas tardó demasiado en responder. Inténtelo de nuevo más tarde, o descargue el PDF y súbalo.",
  link_type: `Ese enlace no lleva a un resultado de prueba tal como los sirve su empresa de pruebas. ${enlaceComoLoEnvio}`,
  signature_invalid: `El código firmado (código QR) de este PDF no se puede verificar, así que el informe o su código se modificaron después de emitirse. ${subirOriginal}`,
  signature_revoked: "El emisor del código firmado (código QR) de este PDF lo revocó, así que ya no demuestra este resultado. Consulte a su empresa de pruebas.",
  signature_expired: "El código firmado (código QR) de este PDF caducó, así que ya no demuestra este resultado. Hágase una prueba nueva para obtener un resultado nuevo.",
  not_found: "No encontramos este resultado de prueba.",
  no_profile: "Cree su perfil antes de agregar resultados de prueba, para que podamos cotejarlos con sus datos.",
  comment_required: "Describa qué está mal en este resultado antes de enviar la reclamación.",
  result_valid: "Este resultado de prueba se validó, así que no hay nada que reclamar.",
  already_disputed: "Ya presentó una reclamación sobre este resultado de prueba; le escribiremos por correo electrónico cuando la hayamos revisado.",
  response_required: "Escriba la respuesta que leerá la persona.",
  already_reviewed: "Esta reclamación ya se revisó.",
};
