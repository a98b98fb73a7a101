#!/usr/bin/python3
"""Fills translations/entrena_es.ts from the glossary below (after `lupdate` added new strings).
Strings without an entry stay unfinished, and tst_translations fails until one is added.

    /usr/lib/qt6/bin/lupdate -no-obsolete -locations none ui app/bridge -ts translations/entrena_es.ts
    /usr/bin/python3 translations/tools/fill_es.py
"""
import pathlib
import xml.etree.ElementTree as ET

ES = {
    "%1 (%2 logical CPUs, %3 physical cores, %4)": "%1 (%2 CPU lógicas, %3 núcleos físicos, %4)",
    "%1 GFLOP/s (fp32, measured)": "%1 GFLOP/s (fp32, medido)",
    "%1 s": "%1 s",
    "%1, %2 GiB, compute capability %3": "%1, %2 GiB, capacidad de cómputo %3",
    "%1, %2 threads": "%1, %2 hilos",
    "&About and devices…": "&Acerca de y dispositivos…",
    "&Edit": "&Editar",
    "&File": "&Archivo",
    "&Help": "Ay&uda",
    "&Open configuration…": "&Abrir configuración…",
    "&Quit": "&Salir",
    "&Save configuration…": "&Guardar configuración…",
    "&Settings…": "&Preferencias…",
    "A run configuration to load (JSON).": "Una configuración de ejecución que cargar (JSON).",
    "A run is training. Stop it (a checkpoint is saved) and quit, or keep it running?":
        "Hay una ejecución entrenando. ¿Detenerla (se guarda un punto de control) y salir, o dejar que siga?",
    "A workbench for training neural networks faster.": "Un banco de trabajo para entrenar redes neuronales más rápido.",
    "About Entrena and devices": "Acerca de Entrena y dispositivos",
    "Algorithm:": "Algoritmo:",
    "Architecture:": "Arquitectura:",
    "BLAS": "BLAS",
    "Batch size:": "Tamaño de lote:",
    "Best val. accuracy": "Mejor exactitud de val.",
    "Browse…": "Examinar…",
    "CNN (convolutional)": "CNN (convolucional)",
    "CPU": "CPU",
    "CPU threads:": "Hilos de CPU:",
    "Cannot open configuration": "No se puede abrir la configuración",
    "Cannot save configuration": "No se puede guardar la configuración",
    "Cannot start": "No se puede iniciar",
    "Choose the folder holding the data set's files": "Elija la carpeta que contiene los archivos del conjunto de datos",
    "Configurations (*.json)": "Configuraciones (*.json)",
    "Constant": "Constante",
    "Cosine": "Coseno",
    "Could not write %1: %2": "No se pudo escribir %1: %2",
    "Created": "Creada",
    "Data": "Datos",
    "Data set folder": "Carpeta del conjunto de datos",
    "Data set:": "Conjunto de datos:",
    "Device:": "Dispositivo:",
    "Duration": "Duración",
    "Entrena": "Entrena",
    "Entrena — %1": "Entrena — %1",
    "Entrena: train neural networks faster.": "Entrena: entrene redes neuronales más rápido.",
    "Environment": "Entorno",
    "Epoch %1 of %2 · loss %3 · %4 samples/s · about %5 s left":
        "Época %1 de %2 · pérdida %3 · %4 muestras/s · quedan unos %5 s",
    "Epochs:": "Épocas:",
    "Every (epochs):": "Cada (épocas):",
    "Exponential": "Exponencial",
    "Fashion-MNIST": "Fashion-MNIST",
    "Finished in %1 s: test accuracy %2%": "Terminada en %1 s: exactitud de prueba %2 %",
    "Folder:": "Carpeta:",
    "ID": "ID",
    "Keep running": "Dejar que siga",
    "Language:": "Idioma:",
    "Learning rate": "Tasa de aprendizaje",
    "Learning rate reduced: %1": "Tasa de aprendizaje reducida: %1",
    "Learning rate:": "Tasa de aprendizaje:",
    "Learning-rate schedule": "Programa de la tasa de aprendizaje",
    "LibTorch": "LibTorch",
    "MLP (fully connected)": "MLP (totalmente conectada)",
    "MNIST": "MNIST",
    "Matrix multiply": "Producto de matrices",
    "Memory (resident, MiB)": "Memoria (residente, MiB)",
    "Minimum rate:": "Tasa mínima:",
    "Model": "Modelo",
    "Momentum:": "Momento:",
    "Multiply by:": "Multiplicar por:",
    "Name": "Nombre",
    "Open configuration": "Abrir configuración",
    "Optimizer": "Optimizador",
    "Patience (epochs):": "Paciencia (épocas):",
    "Per epoch multiply by:": "Multiplicar en cada época por:",
    "Period (epochs):": "Periodo (épocas):",
    "Ready. Runs are stored in %1": "Listo. Las ejecuciones se guardan en %1",
    "Reduce on plateau": "Reducir en meseta",
    "Run %1 training on %2": "Ejecución %1 entrenando en %2",
    "Run name:": "Nombre de la ejecución:",
    "Run store unavailable: %1": "Almacén de ejecuciones no disponible: %1",
    "Samples/s": "Muestras/s",
    "Save configuration": "Guardar configuración",
    "Schedule:": "Programa:",
    "Settings": "Preferencias",
    "Start": "Iniciar",
    "Starting…": "Iniciando…",
    "Status": "Estado",
    "Step": "Escalonado",
    "Stop": "Detener",
    "Stop and quit": "Detener y salir",
    "Stopped after %1 s; a checkpoint was saved.": "Detenida tras %1 s; se guardó un punto de control.",
    "Stopping…": "Deteniendo…",
    "Synthetic (no files)": "Sintético (sin archivos)",
    "System language": "Idioma del sistema",
    "Test accuracy": "Exactitud de prueba",
    "The configuration is not valid: %1": "La configuración no es válida: %1",
    "The configuration cannot be used: %1\nThe defaults are loaded instead.":
        "No se puede usar la configuración: %1\nSe cargan los valores predeterminados.",
    "The learning rate stays as set.": "La tasa de aprendizaje se mantiene como está.",
    "The run failed.": "La ejecución falló.",
    "The run failed: %1": "La ejecución falló: %1",
    "The run store (SQLite file).": "El almacén de ejecuciones (archivo SQLite).",
    "Training": "Entrenamiento",
    "Training failed": "El entrenamiento falló",
    "Training is running": "El entrenamiento está en curso",
    "Training loss": "Pérdida de entrenamiento",
    "Validation": "Validación",
    "Warning:": "Advertencia:",
    "Weight decay:": "Decaimiento de pesos:",
    "accuracy (right axis)": "exactitud (eje derecho)",
    "automatic": "automático",
    "diverged": "divergió",
    "epoch": "época",
    "epoch mean": "media de la época",
    "failed": "fallida",
    "finished": "terminada",
    "interrupted": "interrumpida",
    "loss": "pérdida",
    "none found": "no se encontró",
    "per step": "por paso",
    "running": "en curso",
    "step": "paso",
    "stopped": "detenida",
    "whole run": "toda la ejecución",
    "Training file:": "Archivo de entrenamiento:",
    "Test file:": "Archivo de prueba:",
    "Label column:": "Columna de la etiqueta:",
    "Random crop (pixels):": "Recorte aleatorio (píxeles):",
    "Random flip:": "Volteo aleatorio:",
    "Hidden widths:": "Anchos ocultos:",
    "Channels:": "Canales:",
    "Blocks per stage:": "Bloques por etapa:",
    "Dropout:": "Dropout:",
    "Peak rate:": "Tasa máxima:",
    "Rising share:": "Fracción de subida:",
    "Annealing:": "Descenso:",
    "Warm-up (steps):": "Calentamiento (pasos):",
    "Clip gradient norm:": "Recortar la norma del gradiente:",
    "Accumulate batches:": "Acumular lotes:",
    "Label smoothing:": "Suavizado de etiquetas:",
    "Early stop after (epochs):": "Parada temprana tras (épocas):",
    "CSV table": "Tabla CSV",
    "ResNet (residual, batch norm)": "ResNet (residual, normalización por lotes)",
    "One-cycle": "Un ciclo",
    "cosine": "coseno",
    "linear": "lineal",
    "e.g. 256, 128": "p. ej. 256, 128",
    "e.g. 32, 64": "p. ej. 32, 64",
    "off": "desactivado",
    "none": "ninguno",
    "left–right, half the images": "izquierda–derecha, la mitad de las imágenes",
    "Choose the data set's folder (images) or training file (CSV)":
        "Elija la carpeta del conjunto de datos (imágenes) o el archivo de entrenamiento (CSV)",
    "The input width comes from the CSV file.": "El ancho de la entrada lo da el archivo CSV.",
    "%1 parameters · %2 MFLOP per sample (forward)": "%1 parámetros · %2 MFLOP por muestra (hacia delante)",
    "This model cannot be built: %1": "No se puede construir este modelo: %1",
    "Training data": "Datos de entrenamiento",
    "CSV files (*.csv)": "Archivos CSV (*.csv)",
    "Test data": "Datos de prueba",
    "Precision:": "Precisión:",
    "Memory (MiB)": "Memoria (MiB)",
    "TorchScript file:": "Archivo TorchScript:",
    "TorchScript (your own model)": "TorchScript (su propio modelo)",
    "saved with torch.jit.script(model).save(path)": "guardado con torch.jit.script(model).save(ruta)",
    "TorchScript model": "Modelo TorchScript",
    "TorchScript modules (*.pt *.pth *.ts);;All files (*)": "Módulos TorchScript (*.pt *.pth *.ts);;Todos los archivos (*)",
    "Choose the TorchScript file.": "Elija el archivo TorchScript.",
    "%1 parameters": "%1 parámetros",
    "Tags": "Etiquetas",
    "At epochs:": "En las épocas:",
    "Multi-step": "Varios escalones",
    "e.g. 5, 8": "p. ej. 5, 8",
    "The run's configuration is loaded; press Start to run it again.":
        "Se cargó la configuración de la ejecución; pulse Iniciar para repetirla.",
    "Cannot load configuration": "No se puede cargar la configuración",
    "Resuming run %1…": "Reanudando la ejecución %1…",
    "Run %1": "Ejecución %1",
    "Name:": "Nombre:",
    "Status:": "Estado:",
    "Started:": "Inicio:",
    "Ended:": "Fin:",
    "Test accuracy:": "Exactitud de prueba:",
    "Error:": "Error:",
    "comma-separated, e.g. baseline, cnn": "separadas por comas, p. ej. referencia, cnn",
    "Tags:": "Etiquetas:",
    "Notes:": "Notas:",
    "Summary": "Resumen",
    "Configuration": "Configuración",
    "Time": "Hora",
    "Kind": "Tipo",
    "Message": "Mensaje",
    "Events": "Eventos",
    "Epoch": "Época",
    "Best": "Mejor",
    "Size": "Tamaño",
    "File": "Archivo",
    "yes": "sí",
    "%1 (missing: deleted or moved)": "%1 (falta: borrado o movido)",
    "Checkpoints": "Puntos de control",
    "Filter runs by any column…": "Filtrar ejecuciones por cualquier columna…",
    "All statuses": "Todos los estados",
    "Details…": "Detalles…",
    "Run again": "Repetir",
    "Resume": "Reanudar",
    "Rename…": "Renombrar…",
    "Rename run": "Renombrar ejecución",
    "Archive": "Archivar",
    "Delete…": "Borrar…",
    "Delete run": "Borrar ejecución",
    "Delete run %1 “%2” with its metrics and checkpoint files? This cannot be undone.":
        "¿Borrar la ejecución %1 «%2» con sus métricas y puntos de control? No se puede deshacer.",

    "process resident": "residente del proceso",
    "device allocated": "asignada en el dispositivo",
    "device reserved": "reservada en el dispositivo",
    "device peak": "pico del dispositivo",
    "device total": "total del dispositivo",
    "&Recipes": "&Recetas",
    "Default: MLP, reduce on plateau, 12 epochs": "Predeterminada: MLP, reducción en meseta, 12 épocas",
    "Fast CNN: one-cycle, 2 epochs to 91% test accuracy":
        "CNN rápida: one-cycle, 2 épocas hasta un 91 % de exactitud en prueba",
    "device used, all processes (NVML)": "usada en el dispositivo, todos los procesos (NVML)",
    "NVML": "NVML",
    "loaded: device memory and utilisation as the driver sees them":
        "cargada: memoria y uso del dispositivo según el controlador",
    "fp32 (full precision)": "fp32 (precisión completa)",
    "bf16 (autocast)": "bf16 (autocast)",
    "fp16 (autocast, loss scaling; CUDA)": "fp16 (autocast, escalado de la pérdida; CUDA)",
    "Generated %1 by Entrena %2": "Generado el %1 por Entrena %2",
    "Runs": "Ejecuciones",
    "Run": "Ejecución",
    "Duration (s)": "Duración (s)",
    "Item": "Elemento",
    "Value": "Valor",
    "Setting": "Ajuste",
    "(no differences)": "(sin diferencias)",
    "Charts": "Gráficas",
    "The best value in each row is in bold.": "El mejor valor de cada fila está en negrita.",
    "Figure": "Cifra",
    "(none)": "(ninguno)",
    "Notes": "Notas",
    "Cannot write %1: the folder does not exist.": "No se puede escribir %1: la carpeta no existe.",
    "Cannot write %1: check that the folder is writable and the disk has space.":
        "No se puede escribir %1: compruebe que la carpeta admite escritura y que queda espacio en el disco.",
    "Cannot write %1: the file could not be replaced.": "No se puede escribir %1: no se pudo reemplazar el archivo.",
    "Export as PNG…": "Exportar como PNG…",
    "Export as SVG…": "Exportar como SVG…",
    "Export as PDF…": "Exportar como PDF…",
    "Copy data as CSV": "Copiar los datos como CSV",
    "%1 files (*.%2)": "Archivos %1 (*.%2)",
    "Export chart": "Exportar gráfica",
    "Exported from Entrena": "Exportada desde Entrena",
    "Cannot tell the image format from “%1”: name the file .png, .svg or .pdf.":
        "No se reconoce el formato de imagen de «%1»: use la extensión .png, .svg o .pdf.",
    "Export &report of the selected runs…": "Exportar &informe de las ejecuciones seleccionadas…",
    "Host": "Equipo",
    "Threads": "Hilos",
    "Devices": "Dispositivos",
    "Process tuning": "Ajuste del proceso",
    "Validation accuracy": "Exactitud de validación",
    "accuracy": "exactitud",
    "learning rate": "tasa de aprendizaje",
    "Memory (MiB, process resident)": "Memoria (MiB, residente del proceso)",
    "MiB": "MiB",
    "Throughput (samples/s)": "Rendimiento (muestras/s)",
    "samples/s": "muestras/s",
    "No runs to report on: give at least one run ID.": "No hay ejecuciones para el informe: indique al menos un ID de ejecución.",
    "There is no run %1 in %2; `entrena-cli runs --db %2` lists them.":
        "No existe la ejecución %1 en %2; `entrena-cli runs --db %2` las lista.",
    "Run report: %1": "Informe de la ejecución %1",
    "Best validation accuracy (%)": "Mejor exactitud de validación (%)",
    "Test accuracy (%)": "Exactitud en prueba (%)",
    "Final training loss": "Pérdida de entrenamiento final",
    "Final validation loss": "Pérdida de validación final",
    "Peak memory (MiB)": "Memoria máxima (MiB)",
    "--export-report needs --out FILE.pdf or --out FILE.html.": "--export-report necesita --out ARCHIVO.pdf o --out ARCHIVO.html.",
    "Cannot tell the report's format from “%1”: name the file .pdf or .html.":
        "No se reconoce el formato del informe de «%1»: use la extensión .pdf o .html.",
    "“%1” is not a run ID: --runs takes numbers such as 3,5,8.": "«%1» no es un ID de ejecución: --runs admite números como 3,5,8.",
    "--export-report needs --runs ID[,ID...]; `entrena-cli runs` lists the IDs.":
        "--export-report necesita --runs ID[,ID...]; `entrena-cli runs` lista los ID.",
    "There is no run store at %1; give the database with --db FILE.":
        "No hay almacén de ejecuciones en %1; indique la base de datos con --db ARCHIVO.",
    "Wrote %1": "Se escribió %1",
    "Cannot write %1: %2": "No se puede escribir %1: %2",
    "Cannot write %1: the PDF could not be started.": "No se puede escribir %1: no se pudo empezar el PDF.",
    "Export weights…": "Exportar pesos…",
    "Best checkpoint…": "Mejor punto de control…",
    "Last checkpoint…": "Último punto de control…",
    "Export weights": "Exportar pesos",
    "PyTorch state dict (*.pt *.pth)": "state dict de PyTorch (*.pt *.pth)",
    "safetensors (*.safetensors)": "safetensors (*.safetensors)",
    "Exporting and checking the weights on the test set…": "Exportando y comprobando los pesos con el conjunto de prueba…",
    "Test accuracy of these weights: %1%.": "Exactitud en prueba de estos pesos: %1 %.",
    "Export report": "Exportar informe",
    "Select one run, or several to compare (Ctrl+click), in the runs list first.":
        "Seleccione antes una ejecución, o varias para compararlas (Ctrl+clic), en la lista de ejecuciones.",
    "PDF (*.pdf)": "PDF (*.pdf)",
    "HTML, self-contained (*.html)": "HTML autocontenido (*.html)",
    "The run store is not open.": "El almacén de ejecuciones no está abierto.",
    "Export comparison report…": "Exportar informe comparativo…",
    "Export report…": "Exportar informe…",
    "Write a report of --runs to --out (.pdf or .html) and exit; no display needed.":
        "Escribe un informe de --runs en --out (.pdf o .html) y termina; no necesita pantalla.",
    "Run IDs for --export-report, comma-separated.": "ID de ejecución para --export-report, separados por comas.",
    "The report file for --export-report.": "El archivo del informe para --export-report.",
}

# The same English word in another context, where it means something else.
BY_CONTEXT = {
    ("entrena::ui::RunDetailsDialog", "Step"): "Paso",
}

# Plural messages (%n): Spanish has two forms, singular and plural.
PLURAL = {
    "Only the settings that differ between the runs are shown; %n more are the same in all of them.": (
        "Solo se muestran los ajustes que difieren entre las ejecuciones; %n más es igual en todas.",
        "Solo se muestran los ajustes que difieren entre las ejecuciones; otros %n son iguales en todas."),
    "Comparison of %n runs": ("Comparación de %n ejecución", "Comparación de %n ejecuciones"),
    "Wrote %1 (%n tensor(s), from %2) and %3.": (
        "Se escribió %1 (%n tensor, de %2) y %3.", "Se escribió %1 (%n tensores, de %2) y %3."),
    "The run was deleted, but %n checkpoint file(s) could not be removed.": (
        "Se borró la ejecución, pero no se pudo eliminar %n archivo de punto de control.",
        "Se borró la ejecución, pero no se pudieron eliminar %n archivos de puntos de control."),
}

path = pathlib.Path(__file__).resolve().parents[1] / "entrena_es.ts"
tree = ET.parse(path)
missing = []
for context in tree.iter("context"):
  name = context.find("name").text
  for message in context.iter("message"):
    source = message.find("source").text or ""
    translation = message.find("translation")
    if translation.get("type") in ("obsolete", "vanished"):
        continue
    if message.get("numerus") == "yes" and source in PLURAL:
        for child in list(translation):
            translation.remove(child)
        translation.text = None
        for form in PLURAL[source]:
            ET.SubElement(translation, "numerusform").text = form
        translation.attrib.pop("type", None)
    elif (name, source) in BY_CONTEXT:
        translation.text = BY_CONTEXT[(name, source)]
        translation.attrib.pop("type", None)
    elif source in ES:
        translation.text = ES[source]
        translation.attrib.pop("type", None)
    elif translation.get("type") == "unfinished":
        missing.append(source)
tree.write(path, encoding="utf-8", xml_declaration=True)
# ElementTree drops the DOCTYPE; put it back for Qt Linguist.
text = path.read_text(encoding="utf-8")
if "<!DOCTYPE TS>" not in text:
    text = text.replace("?>\n", "?>\n<!DOCTYPE TS>\n", 1)
path.write_text(text, encoding="utf-8")
for m in missing:
    print("no Spanish yet:", repr(m))
