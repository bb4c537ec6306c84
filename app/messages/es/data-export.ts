/** Spanish of app/messages/data-export.ts (the files of Download my data), in the terms of docs/glossary-es.md. */
import { productName } from "./shell.ts";

export const dataExportReadmeTitle = `Sus datos de ${productName}`;
export const dataExportMadeOn = (exportedAt: string, account: string) => `Creado el ${exportedAt} (UTC) para ${account}.`;
export const dataExportYourAccount = "su cuenta";
export const dataExportJsonFile =
  "su cuenta, su perfil, cada resultado de prueba con las comprobaciones que hicimos y sus reclamaciones con nuestras respuestas, las personas que le siguen y las que usted sigue, cada comprobación de su ventana que hizo un local con sus registros de entrada y calificaciones y, si usted trabaja para un local, sus datos de empresa y los locales que administra (JSON).";
export const dataExportResultsFolder =
  "una carpeta por cada resultado de prueba: page-1.jpg, la imagen que mostramos, y original.pdf, el PDF exactamente como usted lo subió.";
export const dataExportMissing = "No se pudieron leer algunos archivos mientras se creaba este archivo ZIP; descárguelo de nuevo más tarde.";
export const dataExportImageMissing = (detail: string) => `no se pudo leer la imagen (${detail})`;
export const dataExportPdfMissing = (detail: string) => `no se pudo leer el PDF (${detail})`;
