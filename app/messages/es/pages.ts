/** Spanish of app/messages/pages.ts (the Terms of Service, the Privacy Policy, how safe windows are counted), in the terms of docs/glossary-es.md. */
import type { WindowHoursTable } from "../../../contracts/rules.ts";
import { productName } from "./shell.ts";

export const termsPage = {
  pageTitle: `Términos del servicio · ${productName}`,
  title: "Términos del servicio",
  intro: `${productName} muestra, por un tiempo limitado, que usted tuvo una prueba de COVID-19 negativa reciente. Al crear una cuenta, usted acepta que:`,
  adult: "Usted tiene al menos 18 años de edad y los datos de su perfil son suyos y correctos.",
  originalPdf: "Usted sube solo el PDF original que le entregó su laboratorio. No se aceptan archivos enviados por fax, guardados, impresos ni editados.",
  notDiagnosis:
    "Una ventana segura es información sobre una prueba pasada, no un diagnóstico médico ni una garantía de que usted no pueda transmitir la infección.",
  followers: "Las personas a las que usted permite seguirle ven su nombre y su ventana segura, nunca su fecha de nacimiento.",
  leaving: `Puede dejar de usar ${productName} en cualquier momento. Puede descargar sus datos y eliminar su cuenta, con todo lo que contiene, directamente en Mis ajustes; la Política de privacidad indica qué se elimina y cuándo dejan de conservarlo las copias de seguridad.`,
  back: "Volver a Crear cuenta",
} as const;

export const privacyPage = {
  pageTitle: `Política de privacidad · ${productName}`,
  title: "Política de privacidad",
  intro: "Conservamos solo lo que el servicio necesita, y no lo vendemos.",
  email: "Su dirección de correo electrónico y una versión cifrada irreversible (hash) de su contraseña, para que pueda iniciar sesión. Nunca guardamos su contraseña en sí.",
  profile: "Su nombre, fecha de nacimiento y código postal, para asociar sus resultados de prueba con usted.",
  results: "Los PDF de resultados de prueba que usted sube y lo que leemos en ellos, para calcular su ventana segura.",
  resultLinks:
    "Cuando agrega un resultado mediante un enlace, el resultado que obtenemos del sitio de su empresa de pruebas y el nombre del sitio. El enlace en sí se usa una sola vez para obtener el resultado y no se guarda.",
  cookies: "Una cookie de sesión mientras tiene la sesión iniciada, y una cookie que recuerda su dirección de correo electrónico en este dispositivo.",
  checkIns:
    "Cuando un local ingresa un código de registro que usted le mostró: el local, la hora, lo que vio (su nombre y si su ventana segura estaba abierta), si se registró su entrada, y su calificación. Su ubicación, cuando busca locales cerca de usted, se usa para esa búsqueda y no se guarda.",
  whoSees: (minutes: number) =>
    `Su fecha de nacimiento nunca se muestra a otras personas. Solo las personas cuya solicitud de seguimiento usted confirmó ven su ventana segura, y un local solo la ve mediante un código de registro que usted decidió mostrarle, que funciona una sola vez, durante ${minutes} minutos.`,
  passTitle: `El pase ${productName}`,
  passShows:
    "Su pase muestra a quien lo escanee sus iniciales, su cumpleaños sin el año, si su ventana segura es fuerte o débil, hasta cuándo, y cuándo se emitió el pase. Nada más: ni su nombre, ni su año de nacimiento, ni su ID de producto, ni su laboratorio, ni su resultado.",
  passLives: (hours: number) =>
    `Un pase sigue siendo válido hasta que termina su ventana, como máximo ${hours} horas después de su prueba, aunque luego se determine que el resultado no es válido o usted elimine su cuenta: un pase no lleva ningún número, así que no se puede retirar. Cada vez que abre su pase, obtiene uno nuevo.`,
  passScreenshot: "Otra persona podría mostrar una captura de pantalla de su pase. Por eso quien lo comprueba coteja las iniciales y el cumpleaños con una identificación con foto.",
  passChecks:
    "No sabemos nada de una comprobación hecha en un navegador con JavaScript: el pase se comprueba en el dispositivo de quien lo comprueba. Una comprobación hecha sin JavaScript nos envía el pase; lo comprobamos y lo olvidamos, y no guardamos ningún registro de ello.",
  yoursTitle: "Sus datos son suyos",
  download:
    "{button} en Mis ajustes le da un archivo ZIP con su perfil, cada resultado de prueba con su imagen y el PDF original, sus reclamaciones con nuestras respuestas, las personas que usted sigue y las que le siguen, y sus visitas a locales.",
  deletion:
    "{button} en Mis ajustes, tras confirmarlo con su contraseña, elimina de inmediato su cuenta, su perfil, sus resultados de prueba con sus imágenes y PDF, sus reclamaciones, sus relaciones de seguimiento (las otras personas dejan de verle) y sus visitas, los correos electrónicos que le enviamos y que aún guardamos, y todas las sesiones abiertas en todos sus dispositivos. Le enviamos una confirmación a su dirección de correo electrónico; nuestra copia de ese correo se elimina en cuanto se envía. Esto no se puede deshacer.",
  backups:
    "Las copias de seguridad de este servicio hechas antes de que usted eliminara su cuenta aún contienen lo que había en ella en ese momento: su cuenta, perfil, resultados de prueba con sus imágenes y PDF, reclamaciones, relaciones de seguimiento, visitas y los correos electrónicos que guardamos. Las copias de seguridad no se modifican; cada una se elimina dentro de los 30 días siguientes a su creación, así que 30 días después de que usted elimine su cuenta no queda ninguna copia.",
  back: "Volver a Crear cuenta",
} as const;

export const testingPhilosophyPage = {
  pageTitle: `Cómo calculamos las ventanas seguras · ${productName}`,
  title: "Cómo calculamos las ventanas seguras",
  intro:
    "Una ventana segura indica durante cuánto tiempo sigue siendo válida una prueba de COVID-19 negativa reciente. No es un diagnóstico: una prueba muestra cómo estaban las cosas cuando se tomó su muestra, y ese dato pierde valor con el tiempo. Por eso toda ventana se cierra.",
  windowsTitle: "Dos ventanas: fuerte y débil",
  windowsIntro: "Cada resultado negativo abre dos ventanas, que se cuentan desde el momento en que se tomó su muestra (no desde que el laboratorio informó el resultado):",
  tableCaption: "Duración de las ventanas según el método de prueba",
  methodHeader: "Método de prueba",
  strongHeader: "Ventana segura fuerte",
  weakHeader: "Ventana segura débil",
  molecular: "Molecular: prueba de amplificación de ácidos nucleicos (NAAT), como PCR, RT-PCR o isotérmica (ID NOW)",
  antigen: "Prueba rápida de antígenos",
  sources: (table: WindowHoursTable) =>
    `La ventana segura débil sigue el modelo del Certificado COVID Digital de la UE (${table.NAAT.weakHours} horas para NAAT, ${table.antigen.weakHours} para antígenos); la ventana segura fuerte sigue la regla nacional más estricta de uso extendido (${table.NAAT.strongHours} y ${table.antigen.strongHours} horas). Una ventana está abierta hasta el minuto exacto en que termina.`,
  countsTitle: "Qué cuenta",
  negativeOnly: "Solo un resultado negativo abre una ventana. Un resultado positivo cierra cualquier ventana que usted tuviera. Los resultados no concluyentes o nulos no abren ninguna.",
  mostRecent: "Su ventana es la de su resultado válido más reciente, según el momento en que se tomó la muestra.",
  originalOnly:
    "Solo cuenta el PDF original del laboratorio: no un escaneo, fax, foto, copia impresa ni un archivo guardado o editado después de que el laboratorio lo emitió.",
  namesMatch:
    "Su nombre, apellido y fecha de nacimiento deben coincidir exactamente con los del informe. Si no coinciden, por ejemplo por un error de escritura, puede presentar una reclamación sobre el resultado.",
  back: "Volver a Mi ventana segura",
} as const;

export const windowLengthInHours = (hours: number) => `${hours} horas`;
