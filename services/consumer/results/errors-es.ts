// The consumerMessage of each rejection in Spanish (docs/product/calls.md §7.4 "What the upstream
// writes": the reference consumer API answers in the request's language), in the terms of
// docs/glossary-es.md. Same keys and parameters as errors.ts `rejectionMessages`, whose English is
// the source of each sentence; the details of the case (a lab's name, a time, a count) stay as
// written. The sentences that take no details are the web app's own Spanish for the same reasons,
// word for word (tests/unit/refusal-reasons.test.ts checks it), so a page reads the same whoever
// worded it.
const SUBIR_ORIGINAL = "Suba el PDF original tal como lo recibió de su empresa de pruebas.";
const ENLACE_COMO_LO_ENVIO = "Pegue el enlace a su resultado tal como se lo envió su empresa de pruebas.";
const ENLACE_O_SUBIR = "Revise el enlace, o descargue el PDF de su empresa de pruebas y súbalo.";

/** The English words of a report's fields (extract.ts FIELD_WORDS, criteria.ts) in Spanish; another stays as written. */
const FIELDS: Record<string, string> = {
  "patient name": "el nombre del paciente",
  "date of birth": "la fecha de nacimiento",
  "specimen collection time": "la hora de toma de la muestra",
  "test name": "el nombre de la prueba",
  result: "el resultado",
  "given names": "los nombres de pila",
  "last name": "el apellido",
};
const field = (words: string) => FIELDS[words] ?? words;

/** "A, B y C". */
function listOf(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} y ${names[names.length - 1]}`;
}

/** Checked against errors.ts `RejectionWords` where errors.ts answers with it (same keys, same parameters). */
export const spanishRejectionMessages = {
  no_file: () => "No recibimos ningún archivo. Elija el PDF de su resultado de prueba y vuelva a subirlo.",
  too_large: (maxMb: number) => `Este archivo pesa más de ${maxMb} MB, más que cualquier informe de laboratorio que aceptamos. ${SUBIR_ORIGINAL}`,
  not_pdf: () => `Este archivo no es un PDF. ${SUBIR_ORIGINAL}`,
  empty: () => "Este archivo está vacío. Elija el PDF de su empresa de pruebas y vuelva a subirlo.",
  archive: () => "Este archivo es un archivo ZIP, no un PDF. Ábralo y suba el PDF que contiene, tal como se lo envió su empresa de pruebas.",
  wrapped: () => `Este archivo es otro tipo de archivo con un PDF dentro, así que no podemos saber si es el original. ${SUBIR_ORIGINAL}`,
  appended: () => `Este archivo tiene otros datos añadidos después del final del PDF, así que no es el archivo que emitió su empresa de pruebas. ${SUBIR_ORIGINAL}`,
  javascript: () =>
    `Este PDF contiene JavaScript, que ningún resultado de prueba de una empresa de pruebas tiene, así que se modificó después de emitirse. ${SUBIR_ORIGINAL}`,
  launch: () =>
    `Este PDF intenta abrir otro programa o archivo, algo que ningún resultado de prueba de una empresa de pruebas hace, así que se modificó después de emitirse. ${SUBIR_ORIGINAL}`,
  embedded_file: () =>
    `Este PDF tiene otros archivos adjuntos dentro, que ningún resultado de prueba de una empresa de pruebas tiene, así que se modificó después de emitirse. ${SUBIR_ORIGINAL}`,
  actions: () =>
    `Este PDF ejecuta acciones por sí solo al abrirse o verse, algo que ningún resultado de prueba de una empresa de pruebas hace, así que se modificó después de emitirse. ${SUBIR_ORIGINAL}`,
  corrupt: () => "Este PDF está dañado o incompleto y no se puede leer. Descárguelo de nuevo de su empresa de pruebas y suba la copia nueva.",
  encrypted: () => "Este PDF está protegido con contraseña, así que no podemos leerlo. Suba el PDF de su empresa de pruebas sin contraseña.",
  locked: () =>
    `Este PDF se cifró (bloqueado para imprimir, copiar o modificar) después de que su empresa de pruebas lo emitiera, así que no podemos saber si es el original. ${SUBIR_ORIGINAL}`,
  too_many_pages: (pages: number, maxPages: number) =>
    `Este PDF tiene ${pages} páginas; un resultado de prueba tiene como máximo ${maxPages}. Suba solo el PDF del resultado de prueba de su empresa de pruebas.`,
  too_complex: () => `Este PDF es demasiado grande o complejo para que lo revisemos. ${SUBIR_ORIGINAL}`,
  busy: () => "Estamos revisando muchos resultados de prueba en este momento. Inténtelo de nuevo en un minuto.",
  duplicate: () => "Ya subió este resultado de prueba; está en su lista de pruebas. No hace falta subirlo de nuevo.",
  no_text: () =>
    `Este PDF no tiene texto legible: parece escaneado, enviado por fax o fotografiado. Solo podemos revisar el PDF original. ${SUBIR_ORIGINAL}`,
  printed: () => `Este PDF se imprimió o se guardó de nuevo con otro programa, así que no podemos saber si es el original. ${SUBIR_ORIGINAL}`,
  changed: () => `Este PDF se modificó después de que la empresa de pruebas lo emitiera. ${SUBIR_ORIGINAL}`,
  unknown_lab: (labs: string[]) =>
    `No reconocemos la empresa de pruebas de este PDF. Aceptamos resultados de prueba de ${listOf(labs)}; suba un resultado de una de ellas.`,
  unreadable: (lab: string, words: string) => `Reconocimos este informe de ${lab}, pero no pudimos leer ${field(words)}. ${SUBIR_ORIGINAL}`,
  future: (collected: string) =>
    `Este informe dice que la muestra se tomó el ${collected}, una fecha futura. Revise que eligió el archivo correcto; si la fecha está mal, solicite a su empresa de pruebas que corrija el informe.`,

  link_invalid: () => "Ese no es un enlace que podamos abrir. Pegue el enlace a su resultado tal como se lo envió su empresa de pruebas; empieza por https://.",
  link_not_https: () =>
    "Ese enlace no es seguro (no empieza por https://), así que no pudimos estar seguros de que el resultado venga de su empresa de pruebas. Pegue el enlace seguro que le envió su empresa de pruebas.",
  link_unknown_host: (labs: string[]) =>
    `Ese enlace no lleva al sitio de resultados de una empresa de pruebas que aceptemos. Podemos obtener resultados de los sitios de ${listOf(labs)}; para otra empresa de pruebas, descargue el PDF y súbalo.`,
  link_address: () => `Ese enlace lleva a una dirección de la que no obtenemos resultados. ${ENLACE_COMO_LO_ENVIO}`,
  link_redirect: () =>
    `El sitio de su empresa de pruebas nos envió a otro sitio, así que no pudimos estar seguros de que el resultado venga de su empresa de pruebas. ${ENLACE_O_SUBIR}`,
  link_unreachable: () => "No pudimos llegar al sitio de resultados de su empresa de pruebas. Inténtelo de nuevo más tarde, o descargue el PDF y súbalo.",
  link_not_found: () => `El sitio de su empresa de pruebas no tiene ningún resultado en ese enlace; puede que el enlace haya caducado. ${ENLACE_O_SUBIR}`,
  link_slow: () => "El sitio de resultados de su empresa de pruebas tardó demasiado en responder. Inténtelo de nuevo más tarde, o descargue el PDF y súbalo.",
  link_type: () => `Ese enlace no lleva a un resultado de prueba tal como los sirve su empresa de pruebas. ${ENLACE_COMO_LO_ENVIO}`,
  link_too_large: (maxMb: number) => `El documento de ese enlace pesa más de ${maxMb} MB, más que cualquier informe de laboratorio que aceptamos. ${ENLACE_O_SUBIR}`,
  link_wrong_lab: (lab: string) => `El resultado de ese enlace no es un informe de ${lab}, aunque viene del sitio de ${lab}, así que no podemos aceptarlo. ${ENLACE_O_SUBIR}`,
  criteria: (lab: string, words: string, label: string) => `Los criterios no dicen dónde imprime ${lab} ${field(words)}: va después de «${label}».`,
  signature_invalid: () =>
    `El código firmado (código QR) de este PDF no se puede verificar, así que el informe o su código se modificaron después de emitirse. ${SUBIR_ORIGINAL}`,
  signature_revoked: () => "El emisor del código firmado (código QR) de este PDF lo revocó, así que ya no demuestra este resultado. Consulte a su empresa de pruebas.",
  signature_expired: () => "El código firmado (código QR) de este PDF caducó, así que ya no demuestra este resultado. Hágase una prueba nueva para obtener un resultado nuevo.",
  criteria_extra: (lab: string, words: string) => `Los criterios nombran ${field(words)} más de una vez, o como un campo que ${lab} no imprime.`,

  not_found: () => "No encontramos este resultado de prueba.",
  page_not_found: (page: number) => `Este resultado de prueba no tiene una página ${page} que mostrar.`,
  no_profile: () => "Cree su perfil antes de agregar resultados de prueba, para que podamos cotejarlos con sus datos.",
  comment_required: () => "Describa qué está mal en este resultado antes de enviar la reclamación.",
  comment_too_long: (max: number) => `El comentario de la reclamación puede tener como máximo ${max} caracteres.`,
  result_valid: () => "Este resultado de prueba se validó, así que no hay nada que reclamar.",
  already_disputed: () => "Ya presentó una reclamación sobre este resultado de prueba; le escribiremos por correo electrónico cuando la hayamos revisado.",
  response_required: () => "Escriba la respuesta que leerá la persona.",
  response_too_long: (max: number) => `La respuesta puede tener como máximo ${max} caracteres.`,
  already_reviewed: () => "Esta reclamación ya se revisó.",
} as const;
