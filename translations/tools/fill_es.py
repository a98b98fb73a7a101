#!/usr/bin/python3
"""Fills translations/entrena_es.ts from the glossary below (after `lupdate` added new strings).
Strings without an entry stay unfinished, and tst_translations fails until one is added.

    translations/tools/update.sh      (lupdate with the registries' labels, then this script)
"""
import pathlib
import xml.etree.ElementTree as ET

ES = {
    # The tasks' registry (context Registry), and the task's key.
    "Classification": "Clasificación",
    "Task:": "Tarea:",
    # The data sets' registry (context Registry).
    "Image folder": "Carpeta de imágenes",
    "Image size:": "Tamaño de imagen:",
    "Image channels:": "Canales de la imagen:",
    "pruned": "podada",
    "CIFAR-10": "CIFAR-10",
    "checkpoint": "punto de control",
    "early stop": "parada temprana",
    "learning rate reduced": "tasa de aprendizaje reducida",
    "out of memory, retried": "sin memoria, reintentado",
    "resumed": "reanudación",
    "rolled back": "vuelta atrás",
    "Devices to train on": "Dispositivos para entrenar",
    "Training loss chart": "Gráfico de la pérdida de entrenamiento",
    "Validation chart": "Gráfico de validación",
    "Learning rate chart": "Gráfico de la tasa de aprendizaje",
    "Memory chart": "Gráfico de memoria",
    "Filter runs": "Filtrar las ejecuciones",
    "Learning rate schedule preview": "Vista previa del programa de la tasa de aprendizaje",
    "Time per step chart": "Gráfico del tiempo por paso",
    "&View": "&Ver",
    "&Configuration": "&Configuración",
    "&Runs list": "&Lista de ejecuciones",
    "&Full screen": "&Pantalla completa",
    "Reset &layout": "&Restablecer la disposición",
    "The largest batch that fits is %1: %2, a peak of %3 MiB (within %4).":
        "El lote más grande que cabe es %1: %2, un pico de %3 MiB (dentro de %4).",
    "left as it is": "tal como estaba",
    "%1, one thread": "%1, un hilo",
    "not available (no NVIDIA driver library): GPU memory is read from LibTorch alone":
        "no disponible (falta la biblioteca del controlador de NVIDIA): la memoria de la GPU se lee solo de LibTorch",
    "Smooths series of %1 points or more (a debiased moving average, as TensorBoard's); series with fewer points, such as one per epoch, are drawn as they are.":
        "Suaviza las series de %1 puntos o más (una media móvil sin sesgo, como la de TensorBoard); las series con menos "
        "puntos, como las de una por época, se dibujan tal cual.",
    "Smoothing needs series of %1 points or more; these are drawn as they are.":
        "El suavizado necesita series de %1 puntos o más; estas se dibujan tal cual.",
    "Trained:": "Entrenado:",
    "%1 on %2, %3, %4": "%1 con %2, %3, %4",
    "Best validation accuracy:": "Mejor exactitud de validación:",
    "Final training loss:": "Pérdida de entrenamiento final:",
    "Duration:": "Duración:",
    "Throughput:": "Rendimiento:",
    " samples/s": " muestras/s",
    "Peak memory:": "Memoria máxima:",
    "MLP": "MLP",
    "CNN": "CNN",
    "ResNet": "ResNet",
    "TorchScript": "TorchScript",
    "&Run": "E&jecutar",
    "&Start": "&Iniciar",
    "S&top": "&Detener",
    "Find &learning rate…": "Buscar la &tasa de aprendizaje…",
    "Find &batch size…": "Buscar el tamaño de &lote…",
    "&Compare selected runs": "&Comparar las ejecuciones seleccionadas",
    "The largest batch that fits is %1: %2, a peak of %3 MiB of %4 MiB (%5).":
        "El lote más grande que cabe es %1: %2, un pico de %3 MiB de %4 MiB (%5).",
    "one step an epoch": "un paso por época",
    "%1 steps an epoch": "%1 pasos por época",
    "For training, %1 is the better choice: %2, a peak of %3 MiB. It is the largest power of two up to 4,096 that leaves at least 50 steps an epoch: larger batches take fewer steps and need a retuned learning rate.":
        "Para entrenar, %1 es mejor opción: %2, un pico de %3 MiB. Es la mayor potencia de dos, hasta 4.096, que deja al "
        "menos 50 pasos por época: los lotes más grandes dan menos pasos y piden reajustar la tasa de aprendizaje.",
    "For training, %1 is the better choice: %2. It is the largest power of two up to 4,096 that leaves at least 50 steps an epoch: larger batches take fewer steps and need a retuned learning rate.":
        "Para entrenar, %1 es mejor opción: %2. Es la mayor potencia de dos, hasta 4.096, que deja al menos 50 pasos por "
        "época: los lotes más grandes dan menos pasos y piden reajustar la tasa de aprendizaje.",
    "Batch size": "Tamaño de lote",
    "Batch size set to %1.": "Tamaño de lote fijado en %1.",
    "Use %1": "Usar %1",
    "Keep %1": "Mantener %1",
    "Largest batch that fits: %1.": "Lote más grande que cabe: %1.",
    "Fix the form first: %1": "Corrija antes el formulario: %1",
    "the memory budget": "el presupuesto de memoria",
    "the device's memory": "la memoria del dispositivo",
    "the memory available": "la memoria disponible",
    "The loss of each logged step,\nonce a run starts": "La pérdida de cada paso,\nal empezar una ejecución",
    "Validation loss and accuracy\nafter each epoch": "Pérdida y exactitud\nde validación\ntras cada época",
    "The learning rate\neach step applied": "La tasa de aprendizaje\nque aplicó cada paso",
    "The learning rate (up) that each step of the planned run (across) will apply": "La tasa de aprendizaje (vertical) que aplicará cada paso de la ejecución prevista (horizontal)",
    "Trains this configuration; the charts follow it as it goes.": "Entrena esta configuración; los gráficos la siguen mientras avanza.",
    "Stops the run after its current step; it can be resumed from the runs list.": "Detiene la ejecución tras su paso actual; se puede reanudar desde la lista de ejecuciones.",
    "Where each step's time goes,\nonce a run starts": "En qué se va el tiempo\nde cada paso, al empezar\nuna ejecución",
    "This process's memory\nas the run goes": "La memoria de este proceso\ndurante la ejecución",
    "Launch on a cluster": "Lanzar en un clúster",
    "Machines (nodes):": "Máquinas (nodos):",
    "GPUs per machine:": "GPU por máquina:",
    "Processes per machine:": "Procesos por máquina:",
    "Every machine needs entrena-cli on its PATH and the data set at the configured path. Rank 0 records the run in its run store.":
        "Cada máquina necesita entrena-cli en su PATH y el conjunto de datos en la ruta configurada. "
        "El rango 0 registra la ejecución en su almacén.",
    "Copy command": "Copiar la orden",
    "Copy script": "Copiar el script",
    "Save script and configuration…": "Guardar el script y la configuración…",
    "Save the sbatch script": "Guardar el script de sbatch",
    "Slurm batch scripts (*.sbatch *.sh)": "Scripts de lotes de Slurm (*.sbatch *.sh)",
    "On every machine (torchrun):": "En cada máquina (torchrun):",
    "Or submit to Slurm with sbatch:": "O envíelo a Slurm con sbatch:",
    "Cannot write a cluster script": "No se puede escribir un script de clúster",
    "&Launch on a cluster…": "&Lanzar en un clúster…",
    "cuda:%1 — %2 (%3 GiB)": "cuda:%1 — %2 (%3 GiB)",
    "CPU processes:": "Procesos de CPU:",
    "Several processes train data-parallel (Gloo), each on its share of the cores and of every batch; the batch size is per process.":
        "Varios procesos entrenan en paralelo de datos (Gloo), cada uno con su parte de los núcleos y de cada lote; "
        "el tamaño de lote es por proceso.",
    "One process.": "Un proceso.",
    "rank %1": "rango %1",
    "Devices:": "Dispositivos:",
    "%1 (%2 logical CPUs, %3 physical cores, %4)": "%1 (%2 CPU lógicas, %3 núcleos físicos, %4)",
    "%1 GFLOP/s (fp32, measured)": "%1 GFLOP/s (fp32, medido)",
    "%1 s": "%1 s",
    "%1, %2 GiB, compute capability %3": "%1, %2 GiB, capacidad de cómputo %3",
    "%1, %2 threads": "%1, %2 hilos",
    "&About and devices…": "&Acerca de Entrena y dispositivos…",
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
    "accuracy (right axis)": "exactitud (eje der.)",
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
    "Figure": "Métrica",
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
    "%1 (smoothed)": "%1 (suavizada)",
    "samples seen": "muestras vistas",
    "wall time": "hora",
    "seconds since start": "segundos desde el inicio",
    "Compare runs": "Comparar ejecuciones",
    "X-axis:": "Eje X:",
    "Samples seen": "Muestras vistas",
    "Wall time": "Hora",
    "Time since start": "Tiempo desde el inicio",
    "Smoothing: %1": "Suavizado: %1",
    "Log scale": "Escala logarítmica",
    "Only the settings that differ": "Solo los ajustes que difieren",
    "Time to validation accuracy:": "Tiempo hasta la exactitud de validación:",
    "Hyper-parameters": "Hiperparámetros",
    "Validation loss": "Pérdida de validación",
    "Time to %1 validation accuracy (s)": "Tiempo hasta %1 de exactitud de validación (s)",
    "best": "mejor",
    "Cannot compare runs": "No se pueden comparar las ejecuciones",
    "Compare": "Comparar",
    "Select two or more runs (Ctrl+click) to compare them side by side.":
        "Seleccione dos o más ejecuciones (Ctrl+clic) para compararlas lado a lado.",
    "Data set": "Conjunto de datos",
    "Scheduler": "Planificador",
    "Final loss": "Pérdida final",
    "Peak memory": "Memoria máxima",
    "Reading every point for zooming in…": "Leyendo todos los puntos para poder ampliar…",
    "All tags": "Todas las etiquetas",
    "Find a learning rate": "Buscar una tasa de aprendizaje",
    "learning rate (log scale)": "tasa de aprendizaje (escala logarítmica)",
    "training loss": "pérdida de entrenamiento",
    "smoothed, spikes removed": "suavizada, sin picos",
    "Use as learning rate": "Usar como tasa de aprendizaje",
    "Use as one-cycle max_lr": "Usar como max_lr de one-cycle",
    "Sweeping the learning rate from %1 to %2 over %3 steps…": "Barriendo la tasa de aprendizaje de %1 a %2 en %3 pasos…",
    "The loss was not finite from the first steps on: start the sweep at a lower rate.":
        "La pérdida no fue finita desde los primeros pasos: empiece el barrido con una tasa menor.",
    "Suggested: %1 (valley rule: the middle of the loss's descent from %2 to %3; steepest descent at %4). "
    "Chosen: %5 — drag on the chart to change it.":
        "Sugerida: %1 (regla del valle: el centro del descenso de la pérdida de %2 a %3; descenso más pronunciado en %4). "
        "Elegida: %5 — arrastre sobre la gráfica para cambiarla.",
    "Cannot find a learning rate": "No se puede buscar una tasa de aprendizaje",
    "Learning rate set to %1.": "Tasa de aprendizaje fijada en %1.",
    "One-cycle schedule with max_lr %1.": "Planificación one-cycle con max_lr %1.",
    "Find LR…": "Buscar tasa…",
    "Learning-rate range test: sweep the rate on a copy of the model and suggest one.":
        "Prueba de rango de la tasa de aprendizaje: barre la tasa sobre una copia del modelo y sugiere una.",
    "Divergence at step %1, rolled back: %2": "Divergencia en el paso %1, se volvió atrás: %2",
    "Out of memory at step %1: %2": "Sin memoria en el paso %1: %2",
    "Stop search": "Detener la búsqueda",
    "Find batch size…": "Buscar tamaño de lote…",
    "Find batch size": "Buscar tamaño de lote",
    "the batch-size search was stopped": "se detuvo la búsqueda del tamaño de lote",
    "The work failed with an unknown error.": "El trabajo falló con un error desconocido.",
    "The largest batch that fits in memory (train.memory_budget_mb when set): doubling, then binary search, each trial a few real steps of a fresh model.":
        "El lote más grande que cabe en memoria (train.memory_budget_mb si está fijado): duplicando y luego por búsqueda binaria, cada prueba con unos pocos pasos reales de un modelo nuevo.",
    "Batch %1 on %2: %3 (peak %4 MiB)": "Lote %1 en %2: %3 (pico de %4 MiB)",
    "fits": "cabe",
    "too big": "demasiado grande",
    "Largest batch that fits: %1 (peak %2 MiB of %3 MiB); set as the batch size.":
        "Lote más grande que cabe: %1 (pico de %2 MiB de %3 MiB); fijado como tamaño de lote.",
    "Cannot find a batch size": "No se puede buscar un tamaño de lote",
    "Finding the largest batch that fits…": "Buscando el lote más grande que cabe…",
    "No run store is open.": "No hay ningún almacén de ejecuciones abierto.",
    "The baseline of its data set: other runs are measured against its final validation accuracy, %1%.":
        "La referencia de su conjunto de datos: las demás ejecuciones se miden contra su exactitud de validación final, %1%.",
    "Reached the baseline's final validation accuracy (%1%) in %2 s; the baseline took %3 s.":
        "Alcanzó la exactitud de validación final de la referencia (%1%) en %2 s; la referencia tardó %3 s.",
    "Never reached the baseline's final validation accuracy (%1%).":
        "Nunca alcanzó la exactitud de validación final de la referencia (%1%).",
    "Warning: faster than the baseline (run %1) but its final %2 accuracy is %3 percentage points lower.":
        "Aviso: más rápida que la referencia (ejecución %1), pero su exactitud final de %2 es %3 puntos porcentuales menor.",
    "test": "prueba",
    "validation": "validación",
    "baseline": "referencia",
    "not reached": "no alcanzada",
    " pp": " pp",
    "Speed-up vs baseline": "Aceleración frente a la referencia",
    "Δ accuracy vs baseline": "Δ exactitud frente a la referencia",
    "Clear baseline": "Quitar la referencia",
    "Mark as baseline for %1": "Marcar como referencia de %1",
    "Baseline": "Referencia",
    "Baseline tolerance:": "Tolerancia de la referencia:",
    "A run faster than its data set's baseline is flagged when its final accuracy is lower by more than this many percentage points.":
        "Una ejecución más rápida que la referencia de su conjunto de datos se señala cuando su exactitud final es menor en más de estos puntos porcentuales.",
    "Speed-up vs baseline (×)": "Aceleración frente a la referencia (×)",
    "Δ final accuracy vs baseline (pp)": "Δ exactitud final frente a la referencia (pp)",
    "Faster than the baseline (run %1), but its final accuracy is lower by more than the tolerance: check that it is not a worse model.":
        "Más rápida que la referencia (ejecución %1), pero su exactitud final es menor en más de la tolerancia: compruebe que no sea un modelo peor.",
    "Time per step (ms)": "Tiempo por paso (ms)",
    "waiting for data": "esperando datos",
    "forward": "pasada hacia delante",
    "backward": "pasada hacia atrás",
    "optimizer": "optimizador",
    "communication": "comunicación",
    "logging": "registro",
    "Waiting for data %1% of each step: raise data.workers, or lower the augmentation's cost.":
        "Esperando datos el %1% de cada paso: aumente data.workers o abarate el aumento de datos.",
    "Communication %1% of each step: raise the batch per device, so that each all-reduce carries more work.":
        "Comunicación el %1% de cada paso: aumente el lote por dispositivo, para que cada all-reduce lleve más trabajo.",
    "Reporting %1% of each step: raise train.log_every.": "Informes el %1% de cada paso: aumente train.log_every.",
    "The optimizer's update %1% of each step: a larger batch spreads its cost over more samples.":
        "La actualización del optimizador el %1% de cada paso: un lote mayor reparte su coste entre más muestras.",
    "Compute-bound: forward and backward %1% of each step.":
        "Limitado por el cálculo: las pasadas hacia delante y hacia atrás el %1% de cada paso.",
    "Model-FLOP utilisation %1%.": "Utilización de FLOP del modelo: %1%.",
    # Your own data (issue 15): the registry's new data sets and keys, the evaluation, the preview.
    "Image folder": "Carpeta de imágenes",
    "Image size:": "Tamaño de imagen:",
    "Image channels:": "Canales de la imagen:",
    "pruned": "podada",
    "CIFAR-10": "CIFAR-10",
    "data warning": "aviso sobre los datos",
    "not learning": "no aprende",
    "Per class": "Por clase",
    "True: %1\nPredicted: %2\n%3 samples (%4% of the true class)":
        "Verdadera: %1\nPredicha: %2\n%3 muestras (%4 % de la clase verdadera)",
    "Click to see them.": "Haga clic para verlas.",
    "Click a cell to see its samples.": "Haga clic en una celda para ver sus muestras.",
    "Of the samples predicted as this class, the share that are of it.":
        "De las muestras predichas como esta clase, la proporción que lo son.",
    "Of the samples of this class, the share predicted as it.":
        "De las muestras de esta clase, la proporción predicha como tal.",
    "The samples of this class in the split.": "Las muestras de esta clase en la partición.",
    "%1 in %2 that the model predicted right: %3, most confident first.":
        "%1 en %2 que el modelo predijo bien: %3, primero las más seguras.",
    "%1 in %2 that the model took for %3: %4, most confident first.":
        "%1 en %2 que el modelo tomó por %3: %4, primero las más seguras.",
    "Classified again by the last checkpoint of run %1 “%2” (epoch %3, step %4).":
        "Clasificadas de nuevo por el último punto de control de la ejecución %1 «%2» (época %3, paso %4).",
    "Samples of the split that could not be read again (damaged or deleted since): %1.":
        "Muestras de la partición que no se pudieron leer de nuevo (dañadas o borradas desde entonces): %1.",
    "Samples that land in another cell than when the run ended, or are new or gone: %1 (its data changed since, or another device rounded differently).":
        "Muestras que caen en otra celda que al terminar la ejecución, o que son nuevas o faltan: %1 (sus datos cambiaron desde entonces, u otro dispositivo redondeó de otro modo).",
    "%1%": "%1 %",
    "Opened %1.": "Abierto %1.",
    "Nothing on this computer opens %1.": "Ningún programa de este equipo abre %1.",
    "Copied %1.": "Copiado %1.",
    "Predicted class": "Clase predicha",
    "True class": "Clase verdadera",
    "Other samples": "Otras muestras",
    "Data: %1": "Datos: %1",
    "Draw other pictures of each class": "Sacar otras imágenes de cada clase",
    "Reading the data…": "Leyendo los datos…",
    "Reading %1…": "Leyendo %1…",
    "Preview data": "Vista previa de los datos",
    "grey": "en gris",
    "colour": "en color",
    "Each class with its training samples (a table has no pictures to show).":
        "Cada clase con sus muestras de entrenamiento (una tabla no tiene imágenes que mostrar).",
    "⚠ Warning: %1": "⚠ Aviso: %1",
    "Samples": "Muestras",
    "Pictures": "Imágenes",
    "⚠ Skipped files: %1": "⚠ Archivos omitidos: %1",
    "The data cannot be read.": "No se pueden leer los datos.",
    "Read the data's shape": "Leer la forma de los datos",
    "This run has no evaluation. Entrena measures what a model gets wrong, class by class, when a run finishes: runs that failed or were stopped, and runs from before this version, have none.":
        "Esta ejecución no tiene evaluación. Entrena mide en qué se equivoca un modelo, clase por clase, cuando una "
        "ejecución termina: las que fallaron o se detuvieron, y las de antes de esta versión, no la tienen.",
    "the test split": "la partición de prueba",
    "the validation split": "la partición de validación",
    "On %1: %2 samples, %3% right. Rows are the true class, columns what the model predicted; the colour is the share of the row.":
        "En %1: %2 muestras, %3 % acertadas. Las filas son la clase verdadera, las columnas lo que predijo el "
        "modelo; el color es la parte de la fila.",
    "Class": "Clase",
    "Precision (%)": "Precisión (%)",
    "Recall (%)": "Exhaustividad (%)",
    "Support": "Soporte",
    "Most confidently wrong:": "Errores con más confianza:",
    "(no picture)": "(sin imagen)",
    "%1 → %2\n%3% sure": "%1 → %2\n%3 % de confianza",
    "Sample %1 of the split": "Muestra %1 de la partición",
    "Click to see every sample of this pair.": "Haga clic para ver todas las muestras de este par.",
    "Classifying the evaluated split again with the run's last checkpoint…":
        "Clasificando de nuevo la partición evaluada con el último punto de control de la ejecución…",
    "&Open": "&Abrir",
    "Show in &folder": "&Mostrar en la carpeta",
    "Copy &path": "Co&piar la ruta",
    "Copy &line": "Co&piar la línea",
    "&Open the table": "&Abrir la tabla",
    "Samples of one cell": "Muestras de una celda",
    "Open a confusion-matrix cell": "Abrir una celda de la matriz de confusión",
    "The samples cannot be listed: %1": "No se pueden listar las muestras: %1",
    "True %1, predicted %2": "Verdadera %1, predicha %2",
    "Classified by %1.": "Clasificadas por %1.",
    "Line": "Línea",
    "Confidence": "Confianza",
    "Column %1": "Columna %1",
    "Sample %1 of %2 (this data set's images have no file of their own)":
        "Muestra %1 de %2 (las imágenes de este conjunto de datos no tienen archivo propio)",
    "This data set's samples have no file of their own.": "Las muestras de este conjunto de datos no tienen archivo propio.",
    "Preview &data…": "&Vista previa de los datos…",
    "Reading the data's shape for the model's size…": "Leyendo la forma de los datos para el tamaño del modelo…",
    "The model's size is unknown: the data cannot be read (%1).":
        "No se conoce el tamaño del modelo: no se pueden leer los datos (%1).",
    "%1×%2×%3 inputs": "entradas de %1×%2×%3",
    "%1, %2": "%1, %2",
    "This model cannot be built for %1: %2": "No se puede construir este modelo para %1: %2",
    "⚠ Not learning (epoch %1): %2": "⚠ No aprende (época %1): %2",
    "⚠ Some data could not be read: %1": "⚠ No se pudieron leer algunos datos: %1",
    "Dismiss": "Descartar",
    "None of these runs has a per-class evaluation: runs that finish have one.":
        "Ninguna de estas ejecuciones tiene evaluación por clase: la tienen las que terminan.",
    "Accuracy of each class (recall, %): of the class's samples, the share the model predicted as it.":
        "Exactitud de cada clase (exhaustividad, %): de las muestras de la clase, la parte que el modelo predijo como ella.",
    "Without an evaluation: %1.": "Sin evaluación: %1.",
    "The best of each row is marked.": "Se marca lo mejor de cada fila.",
    "true ↓, predicted →": "verdadera ↓, predicha →",
    "Evaluation": "Evaluación",
    "Confusion matrices: a row for each true class, a column for each predicted class (numbered as the rows); the shade is the cell's share of its row.":
        "Matrices de confusión: una fila por clase verdadera, una columna por clase predicha (numeradas como las "
        "filas); el tono es la parte de su fila que tiene la celda.",
    "(no evaluation: the run did not finish)": "(sin evaluación: la ejecución no terminó)",
    "On the %1 split, %2 samples.": "En la partición de %1, %2 muestras.",
    "as stored; e.g. 32 or 64, 48": "como están; p. ej. 32 o 64, 48",
    "Preview data…": "Vista previa de los datos…",
    "Each class with its number of samples and a few of its pictures":
        "Cada clase con su número de muestras y algunas de sus imágenes",
    "Each class with its training samples and up to %1 of its pictures, drawn at random; the pictures are %2×%3 pixels, %4.":
        "Cada clase con sus muestras de entrenamiento y hasta %1 de sus imágenes, al azar; las imágenes son de %2×%3 "
        "píxeles, %4.",
    "%1 classes, %2 training samples in all (the validation share included).":
        "%1 clases, %2 muestras de entrenamiento en total (incluida la parte de validación).",
    "%1 features": "%1 variables",
    "%1 classes": "%1 clases",
    "The runs were trained on different classes: only the classes they share (%1) are shown.":
        "Las ejecuciones se entrenaron con clases distintas: solo se muestran las clases que comparten (%1).",

    # Experiments (issue 16): the run queue, the sweep dialog, the experiment view.
    "Wall time since the first trial (h)": "Tiempo real desde la primera prueba (h)",
    "Wall time since the first trial (min)": "Tiempo real desde la primera prueba (min)",
    "Wall time since the first trial (s)": "Tiempo real desde la primera prueba (s)",
    "Validation accuracy (%)": "Exactitud de validación (%)",
    "Best so far": "La mejor hasta ahora",
    "A trial's epoch": "Una época de una prueba",
    "No trial has reached the end of an epoch yet.": "Ninguna prueba ha llegado aún al final de una época.",
    "Best so far against wall time": "La mejor hasta ahora frente al tiempo real",
    "Load experiment": "Cargar el experimento",
    "Cannot read the experiment: %1": "No se puede leer el experimento: %1",
    "trial %1 (run %2)": "prueba %1 (ejecución %2)",
    "run %1": "ejecución %1",
    "<b>%1</b>: %2, %3 — %4.": "<b>%1</b>: %2, %3 — %4.",
    "the lowest validation loss wins": "gana la menor pérdida de validación",
    "the highest validation accuracy wins": "gana la mayor exactitud de validación",
    "Trials: %1": "Pruebas: %1",
    "(%1 pruned)": "(%1 podadas)",
    "Best: trial %1 (run %2), %3.": "Mejor: prueba %1 (ejecución %2), %3.",
    "%1 of %2 trials inside the brushed ranges.": "%1 de %2 pruebas dentro de los rangos marcados.",
    "Drag along an axis of the chart to narrow the trials to a range.":
        "Arrastre a lo largo de un eje del gráfico para limitar las pruebas a un rango.",
    "grid search": "búsqueda en rejilla",
    "random search": "búsqueda aleatoria",
    "TPE (Bayesian) search": "búsqueda TPE (bayesiana)",
    "ASHA (successive halving)": "ASHA (reducción sucesiva a la mitad)",
    "population-based training": "entrenamiento basado en población",
    "Experiment %1 — %2": "Experimento %1 — %2",
    "Trial": "Prueba",
    "Best validation accuracy": "Mejor exactitud de validación",
    "Lowest validation loss": "Menor pérdida de validación",
    "Epochs": "Épocas",
    "Trials": "Pruebas",
    "Copied from": "Copiada de",
    "Values (before → after)": "Valores (antes → después)",
    "Lineage": "Linaje",
    "Population-based training: at each step listed, a trial took the weights, optimizer state and values of a better one, then perturbed the values.":
        "Entrenamiento basado en población: en cada paso de la lista, una prueba tomó los pesos, el estado del "
        "optimizador y los valores de otra mejor, y después perturbó los valores.",
    "Clear ranges": "Quitar los rangos",
    "Compare selected": "Comparar las seleccionadas",
    "Opens the selected trials (or, with none selected, those shown) in the compare view.":
        "Abre las pruebas seleccionadas (o, si no hay ninguna, las que se muestran) en la vista de comparación.",
    "%1 (%2 pruned)": "%1 (%2 podadas)",
    "accuracy %1 %": "exactitud %1 %",
    "loss %1": "pérdida %1",
    "Sweeps over configurations (Run → Sweep…, or entrena-cli sweep). Open one to see its trials.":
        "Barridos de configuraciones (Ejecutar → Barrido…, o entrena-cli sweep). Abra uno para ver sus pruebas.",
    "Id": "Id",
    "Method": "Método",
    "Created (UTC)": "Creado (UTC)",
    "Experiments": "Experimentos",
    "Open": "Abrir",
    "Cannot add to the queue": "No se puede añadir a la cola",
    "“%1” is queued: it starts when the runs before it have ended.":
        "«%1» está en la cola: empieza cuando hayan terminado las ejecuciones anteriores.",
    "S&weep…": "&Barrido…",
    "Part of the run queue could not be restored: %1": "No se pudo restaurar parte de la cola de ejecuciones: %1",
    "Queue": "Cola",
    "Queue (%1)": "Cola (%1)",
    "It starts when the current run ends.": "Empieza cuando termine la ejecución en curso.",
    "Cannot sweep": "No se puede hacer el barrido",
    "Cannot open the experiment": "No se puede abrir el experimento",
    "Parallel coordinates of the trials": "Coordenadas paralelas de las pruebas",
    "One axis per parameter and one for the metric; a line per trial, coloured by its metric. Drag along an axis to keep the trials in that range; click the axis to clear it.":
        "Un eje por parámetro y uno para la métrica; una línea por prueba, coloreada según su métrica. Arrastre a lo "
        "largo de un eje para quedarse con las pruebas de ese rango; haga clic en el eje para quitarlo.",
    "No trials yet.": "Aún no hay pruebas.",
    "While a run trains, Start becomes Add to queue, which adds the form's configuration here. When the run ends, the first one here starts (one at a time; Stop pauses the queue). Drag to reorder.":
        "Mientras una ejecución entrena, Iniciar pasa a ser Añadir a la cola, que añade aquí la configuración del formulario. Cuando la ejecución "
        "termina, empieza la primera de aquí (de una en una; Detener pausa la cola). Arrastre para reordenar.",
    "Queued runs": "Ejecuciones en cola",
    "Move up": "Subir",
    "Move down": "Bajar",
    "Remove": "Quitar",
    "Run next": "Ejecutar a continuación",
    "Starts it now when nothing trains; otherwise it starts when the current run ends.":
        "La inicia ya si no hay nada entrenando; si no, empieza cuando termine la ejecución en curso.",
    "Add to queue": "Añadir a la cola",
    "Adds this configuration to the queue: it starts when the runs before it have ended.":
        "Añade esta configuración a la cola: empieza cuando hayan terminado las ejecuciones anteriores.",
    "1 epoch": "1 época",
    "%1 epochs": "%1 épocas",
    "%1 · %2 · %3 lr %4 · batch %5 · %6": "%1 · %2 · %3 lr %4 · lote %5 · %6",
    "Open experiment %1 (trial %2)": "Abrir el experimento %1 (prueba %2)",
    "Experiment %1 %2: %3 trials (%4 pruned, %5 failed).": "Experimento %1 %2: %3 pruebas (%4 podadas, %5 fallidas).",
    "Best: run %1, %2.": "Mejor: ejecución %1, %2.",
    "Stopped. The trials saved checkpoints; Resume sweep continues experiment %1 (as `entrena-cli sweep --resume %1` does).":
        "Detenido. Las pruebas guardaron puntos de control; Reanudar barrido continúa el experimento %1 (como "
        "`entrena-cli sweep --resume %1`).",
    "Cannot resume experiment %1: %2": "No se puede reanudar el experimento %1: %2",
    "Resuming experiment %1: %2 of its trials had ended.": "Reanudando el experimento %1: %2 de sus pruebas habían terminado.",
    "Resuming…": "Reanudando…",
    "Resume sweep": "Reanudar barrido",
    "auto (bf16 on CPUs with native bf16)": "auto (bf16 en CPU con bf16 nativo)",
    "bf16 for a CNN or ResNet where the CPU multiplies bf16 natively (AVX-512 BF16, AMX), else fp32":
        "bf16 para una CNN o ResNet donde la CPU multiplica en bf16 de forma nativa (AVX-512 BF16, AMX); si no, fp32",
    "Continues the stopped sweep: running trials go on from their checkpoints, and it ends with the trials it would have had.":
        "Continúa el barrido detenido: las pruebas en curso siguen desde sus puntos de control, y termina con las "
        "pruebas que habría tenido.",
    "Cannot resume the sweep": "No se puede reanudar el barrido",
    "A sweep is running; stop it or wait for it to end.": "Hay un barrido en curso; deténgalo o espere a que termine.",
    "Stopped.": "Detenido.",
    "The sweep failed.": "El barrido falló.",
    "The sweep failed: %1": "El barrido falló: %1",
    "Fix the sweep first: %1": "Corrija antes el barrido: %1",
    "Stopping: each trial ends its step and saves a checkpoint…":
        "Deteniendo: cada prueba termina su paso y guarda un punto de control…",
    "Stop sweep": "Detener el barrido",
    "Start sweep": "Iniciar el barrido",
    "Experiment %1: %2, %3 trials.": "Experimento %1: %2, %3 pruebas.",
    "Trial %1 (run %2) started: %3": "Prueba %1 (ejecución %2) iniciada: %3",
    "Trial %1 (run %2) %3 after one epoch": "Prueba %1 (ejecución %2): %3 tras una época",
    "Trial %1 (run %2) %3 after %4 epochs": "Prueba %1 (ejecución %2): %3 tras %4 épocas",
    "Trial %1 (run %2) copied run %3 at step %4: %5": "Prueba %1 (ejecución %2) copió la ejecución %3 en el paso %4: %5",
    "Trial %1: %2": "Prueba %1: %2",
    "%1 of %2 trials ended.": "%1 de %2 pruebas terminadas.",
    "validation loss %1": "pérdida de validación %1",
    "validation accuracy %1 %": "exactitud de validación %1 %",
    "A sweep is running": "Hay un barrido en curso",
    "Stop the sweep and quit? Its trials save checkpoints; Resume sweep in its experiment's window (or `entrena-cli sweep --resume %1`) continues it.":
        "¿Detener el barrido y salir? Sus pruebas guardan puntos de control; Reanudar barrido en la ventana de su "
        "experimento (o `entrena-cli sweep --resume %1`) lo continúa.",
    "Sweep": "Barrido",
    "Each trial is a run of the form's configuration “%1” with the values below, trained by entrena-cli and kept in the store like any run.":
        "Cada prueba es una ejecución de la configuración del formulario «%1» con los valores de abajo, entrenada por "
        "entrena-cli y guardada en el almacén como cualquier ejecución.",
    "Search space": "Espacio de búsqueda",
    "Method:": "Método:",
    "Trials:": "Pruebas:",
    "At once:": "A la vez:",
    "Metric:": "Métrica:",
    "Seed:": "Semilla:",
    "First rung (epochs):": "Primer escalón (épocas):",
    "Keep 1 in:": "Conservar 1 de cada:",
    "Epochs between exploits:": "Épocas entre copias:",
    "Share that copies:": "Parte que copia:",
    "Grid: every combination": "Rejilla: todas las combinaciones",
    "Random": "Aleatorio",
    "TPE (Bayesian)": "TPE (bayesiano)",
    "ASHA (early stopping)": "ASHA (parada temprana)",
    "Population-based training": "Entrenamiento basado en población",
    "Validation accuracy (higher wins)": "Exactitud de val. (gana la mayor)",
    "Validation loss (lower wins)": "Pérdida de val. (gana la menor)",
    "%1 %2 %": "%1 %2 %",
    "%1 %2": "%1 %2",
    "%1 (%)": "%1 (%)",
    "Trials trained at once; each gets an equal share of the CPU cores (%1).":
        "Pruebas entrenadas a la vez; cada una recibe una parte igual de los núcleos de la CPU (%1).",
    "Every combination of the choices, in order: as many trials as combinations.":
        "Todas las combinaciones de las opciones, en orden: tantas pruebas como combinaciones.",
    "Each trial's values are drawn from their distributions.": "Los valores de cada prueba se sortean de sus distribuciones.",
    "After a few random trials, values are drawn where the best quarter of the trials so far lie.":
        "Tras unas pruebas aleatorias, los valores se sortean donde está el mejor cuarto de las pruebas hasta ahora.",
    "Trials train in rungs of epochs; only the best of each rung go on, the others end pruned.":
        "Las pruebas entrenan en escalones de épocas; solo las mejores de cada escalón siguen, las demás acaban podadas.",
    "Trials train side by side; between intervals the worst take the weights and values of the best, then perturb the values.":
        "Las pruebas entrenan a la par; entre intervalos las peores toman los pesos y valores de las mejores y "
        "después perturban los valores.",
    "Open experiment": "Abrir el experimento",
    "Close": "Cerrar",
    "Progress": "Progreso",
    "Sweep log": "Registro del barrido",
    "e.g. 64, 128, 256": "p. ej. 64, 128, 256",
    "Add a parameter to search.": "Añada un parámetro que buscar.",
    "%1 is in the space twice; remove one of its rows.": "%1 está dos veces en el espacio; quite una de sus filas.",
    "%1: the values must be JSON values separated by commas, e.g. 64, 128 or [256, 128], [512, 256].":
        "%1: los valores deben ser valores JSON separados por comas, p. ej. 64, 128 o [256, 128], [512, 256].",
    "%1: the range's start “%2” is not a number.": "%1: el inicio del rango «%2» no es un número.",
    "%1: the range's end “%2” is not a number.": "%1: el final del rango «%2» no es un número.",
    "Parameter": "Parámetro",
    "Distribution": "Distribución",
    "From": "Desde",
    "To": "Hasta",
    "Values (for a choice)": "Valores (para una elección)",
    "Parameters to search": "Parámetros que buscar",
    "Add parameter": "Añadir parámetro",
    "uniform": "uniforme",
    "log-uniform": "log-uniforme",
    "whole numbers": "números enteros",
    "choice": "elección",
    "Values": "Valores",
    "Remove this parameter": "Quitar este parámetro",
    # Issue 29: what a new user meets.
    "Every size tried fitted, up to the whole training set: memory does not limit the batch here.":
        "Cupieron todos los tamaños probados, hasta el conjunto de entrenamiento entero: aquí la memoria no limita el lote.",
    "This model needs images; a table of %1 trains an MLP.":
        "Este modelo necesita imágenes; una tabla de %1 se entrena con un MLP.",
    "Finished in %1 s: best validation accuracy %2% (no test set)":
        "Terminada en %1 s: mejor exactitud de validación %2 % (sin conjunto de prueba)",
    "Finished in %1 s.": "Terminada en %1 s.",
    "Appearance:": "Apariencia:",
    "As the desktop": "Como el escritorio",
    "Light": "Clara",
    "Dark": "Oscura",
    # Issue 33: a store's disk use, and freeing it.
    "checkpoints deleted": "puntos de control borrados",
    "On disk: %1": "En disco: %1",
    "Checkpoints and evaluation images of every run, archived ones included: %1. The store file: %2.":
        "Puntos de control e imágenes de evaluación de todas las ejecuciones, archivadas incluidas: %1. El archivo del almacén: %2.",
    "Free space…": "Liberar espacio…",
    "Delete the checkpoints of archived and pruned runs; their metrics stay.":
        "Borrar los puntos de control de las ejecuciones archivadas y podadas; sus métricas se conservan.",
    "Free disk space": "Liberar espacio",
    "Run %1 has no checkpoint files to delete.": "La ejecución %1 no tiene archivos de puntos de control que borrar.",
    "None of these runs has checkpoint files to delete.": "Ninguna de estas ejecuciones tiene archivos de puntos de control que borrar.",
    "run %1 “%2”": "la ejecución %1 «%2»",
    "Delete the checkpoints of %1, freeing %2?\n\nTheir metrics, charts and evaluation stay; they can no longer be resumed or their weights exported.":
        "¿Borrar los puntos de control de %1 y liberar %2?\n\nSus métricas, gráficas y evaluación se conservan; ya no se podrán "
        "reanudar ni exportar sus pesos.",
    "Freed %1. The runs' metrics, charts and evaluation are kept.": "Se liberaron %1. Las métricas, los gráficos y la evaluación de las ejecuciones se conservan.",
    "No archived or pruned run has checkpoints to delete. Archive the runs you no longer need (right-click → Archive), or delete one run's checkpoints from its right-click menu.":
        "Ninguna ejecución archivada o podada tiene puntos de control que borrar. Archive las ejecuciones que ya no necesite "
        "(clic derecho → Archivar), o borre los puntos de control de una ejecución desde su menú del clic derecho.",
    "Delete checkpoints (keep metrics)…": "Borrar los puntos de control (conservar las métricas)…",
    "Choose the data's file.": "Elija el archivo de los datos.",
    "Choose the data's folder.": "Elija la carpeta de los datos.",
    "The data cannot be read: %1": "No se pueden leer los datos: %1",
    # Issue 31: balanced data and cross-validation.
    "the classes are unbalanced: “%1” has %2 samples, “%3” %4 (%5× fewer); a model can score well by favouring the large classes, so compare per-class recall (run details → Evaluation), balance them, or gather more of the small ones.":
        "las clases están desequilibradas: «%1» tiene %2 muestras, «%3» %4 (%5 veces menos); un modelo puede puntuar "
        "bien favoreciendo las clases grandes, así que compare la exhaustividad por clase (detalles de la ejecución → "
        "Evaluación), equilíbrelas o reúna más muestras de las pequeñas.",
    "Something went wrong": "Algo salió mal",
    "%1\n\nEntrena carried on. If the run store is named, check the disk it is on; what was saved so far is kept.":
        "%1\n\nEntrena siguió funcionando. Si se nombra el almacén de ejecuciones, revise el disco en que está; lo "
        "guardado hasta ahora se conserva.",
    "cross-validation": "validación cruzada",
    "accuracy %1 % ± %2 (mean ± sd)": "exactitud %1 % ± %2 (media ± desv. típica)",
    "The form already balances them (Balance classes: %1).": "El formulario ya las equilibra (Equilibrar clases: %1).",
    "Stopped. The finished folds are kept, and the others saved checkpoints: Resume sweep in the experiment's window (or entrena-cli cv --resume %1) goes on with the same folds.":
        "Detenida. Los pliegues terminados se conservan y los demás guardaron puntos de control: Reanudar barrido en "
        "la ventana del experimento (o entrena-cli cv --resume %1) sigue con los mismos pliegues.",
    "Stop the cross-validation and quit? Its folds save checkpoints; Resume sweep in its experiment's window (or entrena-cli cv --resume %1) continues it.":
        "¿Detener la validación cruzada y salir? Sus pliegues guardan puntos de control; Reanudar barrido en la "
        "ventana de su experimento (o entrena-cli cv --resume %1) la continúa.",
    "The best two runs are closer than that: cross-validate them (Run → Cross-validate…) to tell them apart.":
        "Las dos mejores ejecuciones están más cerca que eso: haga una validación cruzada (Ejecutar → Validación "
        "cruzada…) para distinguirlas.",
    "Balance classes:": "Equilibrar clases:",
    "no": "no",
    "weight the loss by class": "ponderar la pérdida por clase",
    "draw classes evenly": "extraer las clases por igual",
    "Balance the classes": "Equilibrar las clases",
    "Train with the loss weighted by class (data.balance: weights), so that the small classes count as much as the large ones":
        "Entrenar con la pérdida ponderada por clase (data.balance: weights), para que las clases pequeñas cuenten "
        "tanto como las grandes",
    "The run will weight the loss by class (Balance classes in the form).":
        "La ejecución ponderará la pérdida por clase (Equilibrar clases en el formulario).",
    "The classes will be balanced: the loss is weighted by class.":
        "Las clases se equilibrarán: la pérdida se pondera por clase.",
    "Cross-&validate…": "Validación c&ruzada…",
    "Cannot cross-validate": "No se puede hacer la validación cruzada",
    "Cross-validate": "Validación cruzada",
    "The form's configuration “%1” is trained once per fold: the training data is dealt into folds, and each fold in turn is held out for validation. Every fold is a run in the store; the result is each figure's mean ± standard deviation over the folds, which tells runs apart far better than one small validation split.":
        "La configuración del formulario «%1» se entrena una vez por pliegue: los datos de entrenamiento se reparten "
        "en pliegues y cada pliegue, por turno, se reserva para la validación. Cada pliegue es una ejecución del "
        "almacén; el resultado es la media ± la desviación típica de cada cifra sobre los pliegues, que distingue "
        "las ejecuciones mucho mejor que una sola partición de validación pequeña.",
    "Folds:": "Pliegues:",
    "Keep each class's share in every fold (stratified)": "Mantener la proporción de cada clase en cada pliegue (estratificado)",
    "Repeats:": "Repeticiones:",
    "Each repeat uses the next seed, so it deals other folds": "Cada repetición usa la semilla siguiente, así que reparte otros pliegues",
    "Folds at once:": "Pliegues a la vez:",
    "The CPU's cores are divided among the folds that train at once":
        "Los núcleos de la CPU se reparten entre los pliegues que se entrenan a la vez",
    "Name:": "Nombre:",
    "Open experiment": "Abrir el experimento",
    "Close": "Cerrar",
    "%1-fold": "%1 pliegues",
    "Stopping: each fold finishes its step and saves a checkpoint…":
        "Deteniendo: cada pliegue termina su paso y guarda un punto de control…",
    "A cross-validation is running": "Hay una validación cruzada en curso",
    "Stop the cross-validation and quit? Its folds save checkpoints; `entrena-cli cv --resume %1` continues it.":
        "¿Detener la validación cruzada y salir? Sus pliegues guardan puntos de control; "
        "`entrena-cli cv --resume %1` la continúa.",
    "Fold run %1 started (run %2): %3": "Ejecución de pliegue %1 iniciada (ejecución %2): %3",
    "Fold run %1 (run %2) ended: best validation accuracy %3 %.":
        "La ejecución de pliegue %1 (ejecución %2) terminó: mejor exactitud de validación %3 %.",
    "Fold run %1 (run %2) ended without a validation accuracy.":
        "La ejecución de pliegue %1 (ejecución %2) terminó sin exactitud de validación.",
    "Experiment %1 %2.": "Experimento %1 %2.",
    "Stopped. The folds saved checkpoints; `entrena-cli cv --resume %1` continues with the same folds.":
        "Detenida. Los pliegues guardaron puntos de control; `entrena-cli cv --resume %1` continúa con los mismos pliegues.",
    "The cross-validation failed: %1": "La validación cruzada falló: %1",
    "%1 of %2 fold runs finished.": "%1 de %2 ejecuciones de pliegue terminadas.",
    "Validation accuracy: <b>%1 % ± %2</b> (mean ± sd)": "Exactitud de validación: <b>%1 % ± %2</b> (media ± desv. típica)",
    "Test accuracy: <b>%1 % ± %2</b> (mean ± sd)": "Exactitud de prueba: <b>%1 % ± %2</b> (media ± desv. típica)",
    "Cannot read the result: %1": "No se puede leer el resultado: %1",
    "%1: <b>%2 % ± %3</b> (mean ± sd; folds: %4)": "%1: <b>%2 % ± %3</b> (media ± desv. típica; pliegues: %4)",
    "The best two runs are closer than that: cross-validate them (entrena-cli cv) to tell them apart.":
        "Las dos mejores ejecuciones están más cerca que eso: haga una validación cruzada (entrena-cli cv) para "
        "distinguirlas.",
    "Cross-validate:": "Validación cruzada:",
    "No: one run a trial": "No: una ejecución por prueba",
    "Each trial trains once per fold and is valued by the folds' mean (ASHA prunes on it too): steadier on a small data set, and that many times the work.":
        "Cada prueba se entrena una vez por pliegue y se valora por la media de los pliegues (ASHA también poda según ella): más estable en un conjunto de datos pequeño, y tantas veces más trabajo.",
    "Best: trial %1 (its first fold is run %2), %3 over its folds.":
        "Mejor: prueba %1 (su primer pliegue es la ejecución %2), %3 sobre sus pliegues.",
    "Best mean validation accuracy": "Mejor exactitud de validación media",
    "Lowest mean validation loss": "Menor pérdida de validación media",
    # Try it (issue 30)
    "Try it": "Probar",
    "Try the model…": "Probar el modelo…",
    "Try the model": "Probar el modelo",
    "Checkpoint:": "Punto de control:",
    "Choose images…": "Elegir imágenes…",
    "Choose images": "Elegir imágenes",
    "…or drop PNG or JPEG files (or folders) here.": "…o suelte aquí archivos PNG o JPEG (o carpetas).",
    "Classify": "Clasificar",
    "Best by validation (epoch %1, step %2)": "El mejor en validación (época %1, paso %2)",
    "Latest (epoch %1, step %2)": "El último (época %1, paso %2)",
    "This run kept no checkpoint, so there is no model to try.":
        "Esta ejecución no guardó ningún punto de control, así que no hay modelo que probar.",
    "The image": "La imagen",
    "Loading the model…": "Cargando el modelo…",
    "Load the model": "Cargar el modelo",
    "Type or paste a row of values for: %1.": "Escriba o pegue una fila de valores para: %1.",
    "Values separated by commas, semicolons or tabs": "Valores separados por comas, puntos y coma o tabuladores",
    "The model classifies a row of the table it was trained on, scaled as in training.":
        "El modelo clasifica una fila de la tabla con la que se entrenó, escalada como en el entrenamiento.",
    "Each image is resized to %1 × %2, %3, and normalised as in training.":
        "Cada imagen se redimensiona a %1 × %2, %3, y se normaliza como en el entrenamiento.",
    "in grey": "en gris",
    "in colour": "en color",
    "The model could not be loaded: %1": "No se pudo cargar el modelo: %1",
    "Images (*.png *.jpg *.jpeg *.PNG *.JPG *.JPEG)": "Imágenes (*.png *.jpg *.jpeg *.PNG *.JPG *.JPEG)",
    "Classifying…": "Clasificando…",
    "%1 was not classified: %2": "%1 no se clasificó: %2",
    "As the model sees it (%1 × %2)": "Como la ve el modelo (%1 × %2)",
    "This row cannot be classified: %1": "Esta fila no se puede clasificar: %1",
    "ONNX, for other runtimes (*.onnx)": "ONNX, para otros entornos de ejecución (*.onnx)",
    # Issue 53: the user guide, read-only stores, freed checkpoints, recall over folds, the folds chart.
    "Entrena: what you are looking at": "Entrena: lo que está viendo",
    "Every setting of a run": "Cada ajuste de una ejecución",
    "Sweeps, queues and cross-validation": "Barridos, colas y validación cruzada",
    "Evaluation: what the model gets wrong": "Evaluación: en qué se equivoca el modelo",
    "Using a trained model": "Usar un modelo entrenado",
    "Exporting weights": "Exportar los pesos",
    "The run store and its files": "El almacén de ejecuciones y sus archivos",
    "Several devices and machines": "Varios dispositivos y máquinas",
    "The command line (entrena-cli)": "La línea de órdenes (entrena-cli)",
    "Entrena user guide": "Guía de usuario de Entrena",
    "Contents": "Contenido",
    "Document": "Documento",
    "The user guide is not installed here. It is README.md and the docs/ folder of Entrena's sources, and /usr/share/doc/entrena in its Debian package.":
        "La guía de usuario no está instalada aquí. Es README.md y la carpeta docs/ de las fuentes de Entrena, y "
        "/usr/share/doc/entrena en su paquete Debian.",
    "&User guide": "&Guía de usuario",
    "%1 %2 % ± %3": "%1 %2 % ± %3",
    "Recall, the classes' mean: <b>%1 % ± %2</b>": "Exhaustividad, media de las clases: <b>%1 % ± %2</b>",
    "Recall of each class, lowest first: %1": "Exhaustividad de cada clase, de menor a mayor: %1",
    "fold": "pliegue",
    "%": "%",
    "validation accuracy": "exactitud de validación",
    "recall, the classes' mean": "exhaustividad, media de las clases",
    "mean accuracy": "exactitud media",
    "± one standard deviation": "± una desviación típica",
    "Folds chart": "Gráfico de los pliegues",
    "Each fold's validation accuracy and recall, with the accuracy's mean and spread over the folds":
        "La exactitud de validación y la exhaustividad de cada pliegue, con la media y la dispersión de la exactitud "
        "entre los pliegues",
    "Random seed:": "Semilla aleatoria:",
    "Fold:": "Pliegue:",
    "Validation share:": "Parte para validación:",
    "%1 “%2”": "%1 «%2»",
    "This run kept no checkpoint.": "Esta ejecución no guardó ningún punto de control.",
    "it is on read-only media": "está en un medio de solo lectura",
    "you may not write to it or to its folder": "no tiene permiso para escribir en él ni en su carpeta",
    "the disk holding it is full": "el disco que lo contiene está lleno",
    "it cannot be written here": "aquí no se puede escribir en él",
    "This run store can only be read: %1. Its runs can be viewed, compared, exported and tried, not changed, and new runs cannot be stored in it. To train, free space or start Entrena with a writable store (entrena --db FILE); to keep these runs, import them into yours: entrena-cli import FILE.":
        "Este almacén de ejecuciones solo se puede leer: %1. Sus ejecuciones se pueden ver, comparar, exportar y "
        "probar, no cambiar, y no se pueden guardar ejecuciones nuevas en él. Para entrenar, libere espacio o inicie "
        "Entrena con un almacén en el que se pueda escribir (entrena --db ARCHIVO); para conservar estas ejecuciones, "
        "impórtelas en el suyo: entrena-cli import ARCHIVO.",
    "Read-only run store": "Almacén de ejecuciones de solo lectura",
    "Nesterov momentum:": "Momento de Nesterov:",
    "Momentum dampening:": "Amortiguación del momento:",
    "Training samples used:": "Muestras de entrenamiento usadas:",
    "Test samples used:": "Muestras de prueba usadas:",
    "Steps at most:": "Pasos como máximo:",
    "Checkpoints kept:": "Puntos de control conservados:",
    "Early stop watches:": "La parada temprana observa:",
    "Early stop's smallest improvement:": "Mejora mínima de la parada temprana:",
    "Loss spike that rolls back:": "Pico de pérdida que hace volver atrás:",
    "Learning rate after a rollback:": "Tasa de aprendizaje tras volver atrás:",
    "Figure watched:": "Cifra observada:",
    "Better is:": "Mejor es:",
    "Smallest improvement:": "Mejora mínima:",
    "Improvement measured:": "Mejora medida:",
    "Cool-down (epochs):": "Enfriamiento (épocas):",
    "Lowest learning rate:": "Tasa de aprendizaje mínima:",
    "Smallest reduction:": "Reducción mínima:",
    "This run store can only be read, so a new run cannot be stored in it. Start Entrena with a store you can write (entrena --db FILE), or import these runs into yours.":
        "Este almacén de ejecuciones solo se puede leer, así que no se puede guardar en él una ejecución nueva. Inicie "
        "Entrena con un almacén en el que pueda escribir (entrena --db ARCHIVO), o importe estas ejecuciones en el suyo.",
    "Command for torchrun": "Orden para torchrun",
    "Slurm batch script": "Script por lotes de Slurm",
    "Run configuration": "Configuración de la ejecución",
    "Progress of the folds": "Progreso de los pliegues",
    "This run's checkpoints were deleted on %1 (%2 freed), so there is no model to try or export. Its charts, metrics, events and evaluation stay.":
        "Los puntos de control de esta ejecución se borraron el %1 (%2 liberados), así que no hay modelo que probar ni "
        "exportar. Sus gráficos, métricas, eventos y evaluación se conservan.",
}

# The same English word in another context, where it means something else.
BY_CONTEXT = {
    ("entrena::ui::RunDetailsDialog", "Step"): "Paso",
    ("entrena::ui::Report", "Step"): "Paso",
    ("entrena::ui::CompareView", "Step"): "Paso",
    ("entrena::ui::ExperimentView", "Step"): "Paso",
    # An experiment is masculine in Spanish; a run (ejecución) feminine.
    ("entrena::ui::ExperimentView", "running"): "en curso",
    ("entrena::ui::ExperimentView", "finished"): "terminado",
    ("entrena::ui::ExperimentView", "stopped"): "detenido",
    ("entrena::ui::ExperimentView", "failed"): "fallido",
}

# Plural messages (%n): Spanish has two forms, singular and plural.
PLURAL = {
    "%n sample(s) of the split could not be read again (damaged or deleted since).": (
        "%n muestra de la partición no se pudo leer de nuevo (dañada o borrada desde entonces).",
        "%n muestras de la partición no se pudieron leer de nuevo (dañadas o borradas desde entonces)."),
    "%n sample(s) of %1 in %2, predicted right; most confident first.": (
        "%n muestra de %1 en %2, predicha bien; primero las más seguras.",
        "%n muestras de %1 en %2, predichas bien; primero las más seguras."),
    "%n sample(s) of %1 in %2 that the model took for %3; most confident first.": (
        "%n muestra de %1 en %2 que el modelo tomó por %3; primero las más seguras.",
        "%n muestras de %1 en %2 que el modelo tomó por %3; primero las más seguras."),
    "%n sample(s) now land in another cell than when the run ended: its data changed since, or another device rounded differently.": (
        "%n muestra cae ahora en otra celda que al terminar la ejecución: sus datos cambiaron desde entonces, u otro dispositivo redondeó de otro modo.",
        "%n muestras caen ahora en otra celda que al terminar la ejecución: sus datos cambiaron desde entonces, u otro dispositivo redondeó de otro modo."),
    "Type or paste a row of %n value(s), in the training file's column order.": (
        "Escriba o pegue una fila de %n valor, en el orden de columnas del archivo de entrenamiento.",
        "Escriba o pegue una fila de %n valores, en el orden de columnas del archivo de entrenamiento."),
    "%1, the mean of its %n folds": ("%1, la media de su %n pliegue", "%1, la media de sus %n pliegues"),
    "Best: the trial whose first fold is run %1, %2 over its %n folds.": (
        "Mejor: la prueba cuyo primer pliegue es la ejecución %1, %2 sobre su %n pliegue.",
        "Mejor: la prueba cuyo primer pliegue es la ejecución %1, %2 sobre sus %n pliegues."),
    "Too little data for %1 stratified folds: the class “%2” has only %n training sample(s), and every fold needs at least one of each class. Use fewer folds, or more training samples.": (
        "Datos insuficientes para %1 pliegues estratificados: la clase «%2» tiene solo %n muestra de entrenamiento, y cada pliegue necesita al menos una de cada clase. Use menos pliegues o más muestras de entrenamiento.",
        "Datos insuficientes para %1 pliegues estratificados: la clase «%2» tiene solo %n muestras de entrenamiento, y cada pliegue necesita al menos una de cada clase. Use menos pliegues o más muestras de entrenamiento."),
    "Each trial on %n folds": ("Cada prueba en %n pliegue", "Cada prueba en %n pliegues"),
    "Each trial is cross-validated on %n folds; its value is their mean.": (
        "Cada prueba se valida de forma cruzada en %n pliegue; su valor es su media.",
        "Cada prueba se valida de forma cruzada en %n pliegues; su valor es su media."),
    "(mean of %n folds)": ("(media de %n pliegue)", "(media de %n pliegues)"),
    "Data-parallel: %n processes, each with its own batch of the set size.": (
        "Paralelo de datos: %n proceso, con su propio lote del tamaño fijado.",
        "Paralelo de datos: %n procesos, cada uno con su propio lote del tamaño fijado."),
    "Loading %n run(s)…": ("Cargando %n ejecución…", "Cargando %n ejecuciones…"),
    "%n setting(s) are the same in every run.": (
        "%n ajuste es igual en todas las ejecuciones.", "%n ajustes son iguales en todas las ejecuciones."),
    "Compare %n runs": ("Comparar %n ejecución", "Comparar %n ejecuciones"),
    "%n run(s)": ("%n ejecución", "%n ejecuciones"),
    "Only the settings that differ between the runs are shown; %n more are the same in all of them.": (
        "Solo se muestran los ajustes que difieren entre las ejecuciones; %n más es igual en todas.",
        "Solo se muestran los ajustes que difieren entre las ejecuciones; otros %n son iguales en todas."),
    "Comparison of %n runs": ("Comparación de %n ejecución", "Comparación de %n ejecuciones"),
    "Wrote %1 (%n tensor(s), from %2) and %3.": (
        "Se escribió %1 (%n tensor, de %2) y %3.", "Se escribió %1 (%n tensores, de %2) y %3."),
    "The run was deleted, but %n checkpoint file(s) could not be removed.": (
        "Se borró la ejecución, pero no se pudo eliminar %n archivo de punto de control.",
        "Se borró la ejecución, pero no se pudieron eliminar %n archivos de puntos de control."),
    "Experiment %1: %n fold run(s).": ("Experimento %1: %n ejecución de pliegue.", "Experimento %1: %n ejecuciones de pliegue."),
    "<b>%1</b>: %n-fold cross-validation — %2.": (
        "<b>%1</b>: validación cruzada de %n pliegue — %2.", "<b>%1</b>: validación cruzada de %n pliegues — %2."),
    "Repeated %n times, each with its own folds.": (
        "Repetida %n vez, con sus propios pliegues.", "Repetida %n veces, cada una con sus propios pliegues."),
    "Validated on %n sample(s): two validation accuracies must differ by more than %1 percentage points to mean something (at 95 % confidence).": (
        "Validada con %n muestra: dos exactitudes de validación deben diferir en más de %1 puntos porcentuales para "
        "significar algo (con un 95 % de confianza).",
        "Validadas con %n muestras: dos exactitudes de validación deben diferir en más de %1 puntos porcentuales para "
        "significar algo (con un 95 % de confianza)."),
    "On %n %1 sample(s) a difference under %2 percentage points is chance (95 %): cross-validate (entrena-cli cv) to tell these runs apart.": (
        "Con %n muestra de %1, una diferencia de menos de %2 puntos porcentuales es azar (95 %): haga una validación "
        "cruzada (entrena-cli cv) para distinguir estas ejecuciones.",
        "Con %n muestras de %1, una diferencia de menos de %2 puntos porcentuales es azar (95 %): haga una validación "
        "cruzada (entrena-cli cv) para distinguir estas ejecuciones."),
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
