<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES">
<context>
    <name>BatchSizeAnswer</name>
    <message>
        <source>one step an epoch</source>
        <translation>un paso por época</translation>
    </message>
    <message>
        <source>%1 steps an epoch</source>
        <translation>%1 pasos por época</translation>
    </message>
    <message>
        <source>the memory budget</source>
        <translation>el presupuesto de memoria</translation>
    </message>
    <message>
        <source>the device's memory</source>
        <translation>la memoria del dispositivo</translation>
    </message>
    <message>
        <source>the memory available</source>
        <translation>la memoria disponible</translation>
    </message>
    <message>
        <source>The largest batch that fits is %1: %2, a peak of %3 MiB of %4 MiB (%5).</source>
        <translation>El lote más grande que cabe es %1: %2, un pico de %3 MiB de %4 MiB (%5).</translation>
    </message>
    <message>
        <source>The largest batch that fits is %1: %2, a peak of %3 MiB (within %4).</source>
        <translation>El lote más grande que cabe es %1: %2, un pico de %3 MiB (dentro de %4).</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Tamaño de lote</translation>
    </message>
    <message>
        <source>Use %1</source>
        <translation>Usar %1</translation>
    </message>
    <message>
        <source>Keep %1</source>
        <translation>Mantener %1</translation>
    </message>
    <message>
        <source>Every size tried fitted, up to the whole training set: memory does not limit the batch here.</source>
        <translation>Cupieron todos los tamaños probados, hasta el conjunto de entrenamiento entero: aquí la memoria no limita el lote.</translation>
    </message>
    <message>
        <source>For training, %1 is the better choice: %2, a peak of %3 MiB. It is the largest power of two up to 4,096 that leaves at least 50 steps an epoch: larger batches take fewer steps and need a retuned learning rate.</source>
        <translation>Para entrenar, %1 es mejor opción: %2, un pico de %3 MiB. Es la mayor potencia de dos, hasta 4.096, que deja al menos 50 pasos por época: los lotes más grandes dan menos pasos y piden reajustar la tasa de aprendizaje.</translation>
    </message>
    <message>
        <source>For training, %1 is the better choice: %2. It is the largest power of two up to 4,096 that leaves at least 50 steps an epoch: larger batches take fewer steps and need a retuned learning rate.</source>
        <translation>Para entrenar, %1 es mejor opción: %2. Es la mayor potencia de dos, hasta 4.096, que deja al menos 50 pasos por época: los lotes más grandes dan menos pasos y piden reajustar la tasa de aprendizaje.</translation>
    </message>
</context>
<context>
    <name>Registry</name>
    <message>
        <source>cosine</source>
        <translation>coseno</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>lineal</translation>
    </message>
    <message>
        <source>Constant</source>
        <translation>Constante</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Escalonado</translation>
    </message>
    <message>
        <source>Every (epochs):</source>
        <translation>Cada (épocas):</translation>
    </message>
    <message>
        <source>Multiply by:</source>
        <translation>Multiplicar por:</translation>
    </message>
    <message>
        <source>Multi-step</source>
        <translation>Varios escalones</translation>
    </message>
    <message>
        <source>At epochs:</source>
        <translation>En las épocas:</translation>
    </message>
    <message>
        <source>Exponential</source>
        <translation>Exponencial</translation>
    </message>
    <message>
        <source>Per epoch multiply by:</source>
        <translation>Multiplicar en cada época por:</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>Coseno</translation>
    </message>
    <message>
        <source>Period (epochs):</source>
        <translation>Periodo (épocas):</translation>
    </message>
    <message>
        <source>whole run</source>
        <translation>toda la ejecución</translation>
    </message>
    <message>
        <source>Minimum rate:</source>
        <translation>Tasa mínima:</translation>
    </message>
    <message>
        <source>One-cycle</source>
        <translation>Un ciclo</translation>
    </message>
    <message>
        <source>Peak rate:</source>
        <translation>Tasa máxima:</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Rising share:</source>
        <translation>Fracción de subida:</translation>
    </message>
    <message>
        <source>Annealing:</source>
        <translation>Descenso:</translation>
    </message>
    <message>
        <source>Reduce on plateau</source>
        <translation>Reducir en meseta</translation>
    </message>
    <message>
        <source>Patience (epochs):</source>
        <translation>Paciencia (épocas):</translation>
    </message>
    <message>
        <source>Run name:</source>
        <translation>Nombre de la ejecución:</translation>
    </message>
    <message>
        <source>Fashion-MNIST</source>
        <translation>Fashion-MNIST</translation>
    </message>
    <message>
        <source>MNIST</source>
        <translation>MNIST</translation>
    </message>
    <message>
        <source>CSV table</source>
        <translation>Tabla CSV</translation>
    </message>
    <message>
        <source>Test file:</source>
        <translation>Archivo de prueba:</translation>
    </message>
    <message>
        <source>Label column:</source>
        <translation>Columna de la etiqueta:</translation>
    </message>
    <message>
        <source>Synthetic (no files)</source>
        <translation>Sintético (sin archivos)</translation>
    </message>
    <message>
        <source>Channels:</source>
        <translation>Canales:</translation>
    </message>
    <message>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <source>MLP (fully connected)</source>
        <translation>MLP (totalmente conectada)</translation>
    </message>
    <message>
        <source>Hidden widths:</source>
        <translation>Anchos ocultos:</translation>
    </message>
    <message>
        <source>CNN</source>
        <translation>CNN</translation>
    </message>
    <message>
        <source>CNN (convolutional)</source>
        <translation>CNN (convolucional)</translation>
    </message>
    <message>
        <source>ResNet</source>
        <translation>ResNet</translation>
    </message>
    <message>
        <source>ResNet (residual, batch norm)</source>
        <translation>ResNet (residual, normalización por lotes)</translation>
    </message>
    <message>
        <source>Blocks per stage:</source>
        <translation>Bloques por etapa:</translation>
    </message>
    <message>
        <source>TorchScript</source>
        <translation>TorchScript</translation>
    </message>
    <message>
        <source>TorchScript (your own model)</source>
        <translation>TorchScript (su propio modelo)</translation>
    </message>
    <message>
        <source>TorchScript file:</source>
        <translation>Archivo TorchScript:</translation>
    </message>
    <message>
        <source>Momentum:</source>
        <translation>Momento:</translation>
    </message>
    <message>
        <source>The learning rate stays as set.</source>
        <translation>La tasa de aprendizaje se mantiene como está.</translation>
    </message>
    <message>
        <source>Image folder</source>
        <translation>Carpeta de imágenes</translation>
    </message>
    <message>
        <source>Image size:</source>
        <translation>Tamaño de imagen:</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>automático</translation>
    </message>
    <message>
        <source>CIFAR-10</source>
        <translation>CIFAR-10</translation>
    </message>
    <message>
        <source>Image channels:</source>
        <translation>Canales de la imagen:</translation>
    </message>
    <message>
        <source>Grid: every combination</source>
        <translation>Rejilla: todas las combinaciones</translation>
    </message>
    <message>
        <source>grid search</source>
        <translation>búsqueda en rejilla</translation>
    </message>
    <message>
        <source>Every combination of the choices, in order: as many trials as combinations.</source>
        <translation>Todas las combinaciones de las opciones, en orden: tantas pruebas como combinaciones.</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>Aleatorio</translation>
    </message>
    <message>
        <source>random search</source>
        <translation>búsqueda aleatoria</translation>
    </message>
    <message>
        <source>Each trial's values are drawn from their distributions.</source>
        <translation>Los valores de cada prueba se sortean de sus distribuciones.</translation>
    </message>
    <message>
        <source>TPE (Bayesian)</source>
        <translation>TPE (bayesiano)</translation>
    </message>
    <message>
        <source>TPE (Bayesian) search</source>
        <translation>búsqueda TPE (bayesiana)</translation>
    </message>
    <message>
        <source>After a few random trials, values are drawn where the best quarter of the trials so far lie.</source>
        <translation>Tras unas pruebas aleatorias, los valores se sortean donde está el mejor cuarto de las pruebas hasta ahora.</translation>
    </message>
    <message>
        <source>ASHA (early stopping)</source>
        <translation>ASHA (parada temprana)</translation>
    </message>
    <message>
        <source>ASHA (successive halving)</source>
        <translation>ASHA (reducción sucesiva a la mitad)</translation>
    </message>
    <message>
        <source>Trials train in rungs of epochs; only the best of each rung go on, the others end pruned.</source>
        <translation>Las pruebas entrenan en escalones de épocas; solo las mejores de cada escalón siguen, las demás acaban podadas.</translation>
    </message>
    <message>
        <source>First rung (epochs):</source>
        <translation>Primer escalón (épocas):</translation>
    </message>
    <message>
        <source>Keep 1 in:</source>
        <translation>Conservar 1 de cada:</translation>
    </message>
    <message>
        <source>Population-based training</source>
        <translation>Entrenamiento basado en población</translation>
    </message>
    <message>
        <source>population-based training</source>
        <translation>entrenamiento basado en población</translation>
    </message>
    <message>
        <source>Trials train side by side; between intervals the worst take the weights and values of the best, then perturb the values.</source>
        <translation>Las pruebas entrenan a la par; entre intervalos las peores toman los pesos y valores de las mejores y después perturban los valores.</translation>
    </message>
    <message>
        <source>Epochs between exploits:</source>
        <translation>Épocas entre copias:</translation>
    </message>
    <message>
        <source>Share that copies:</source>
        <translation>Parte que copia:</translation>
    </message>
    <message>
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <source>weight the loss by class</source>
        <translation>ponderar la pérdida por clase</translation>
    </message>
    <message>
        <source>draw classes evenly</source>
        <translation>extraer las clases por igual</translation>
    </message>
    <message>
        <source>Balance classes:</source>
        <translation>Equilibrar clases:</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>Exactitud de validación</translation>
    </message>
    <message>
        <source>Validation accuracy (higher wins)</source>
        <translation>Exactitud de val. (gana la mayor)</translation>
    </message>
    <message>
        <source>the highest validation accuracy wins</source>
        <translation>gana la mayor exactitud de validación</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>Pérdida de validación</translation>
    </message>
    <message>
        <source>Validation loss (lower wins)</source>
        <translation>Pérdida de val. (gana la menor)</translation>
    </message>
    <message>
        <source>the lowest validation loss wins</source>
        <translation>gana la menor pérdida de validación</translation>
    </message>
    <message>
        <source>fp32 (full precision)</source>
        <translation>fp32 (precisión completa)</translation>
    </message>
    <message>
        <source>bf16 (autocast)</source>
        <translation>bf16 (autocast)</translation>
    </message>
    <message>
        <source>fp16 (autocast, loss scaling; CUDA)</source>
        <translation>fp16 (autocast, escalado de la pérdida; CUDA)</translation>
    </message>
    <message>
        <source>auto (bf16 on CPUs with native bf16)</source>
        <translation>auto (bf16 en CPU con bf16 nativo)</translation>
    </message>
    <message>
        <source>bf16 for a CNN or ResNet where the CPU multiplies bf16 natively (AVX-512 BF16, AMX), else fp32</source>
        <translation>bf16 para una CNN o ResNet donde la CPU multiplica en bf16 de forma nativa (AVX-512 BF16, AMX); si no, fp32</translation>
    </message>
    <message>
        <source>Classification</source>
        <translation>Clasificación</translation>
    </message>
</context>
<context>
    <name>RunDetailsDialog</name>
    <message>
        <source>checkpoint</source>
        <translation>punto de control</translation>
    </message>
    <message>
        <source>early stop</source>
        <translation>parada temprana</translation>
    </message>
    <message>
        <source>learning rate reduced</source>
        <translation>tasa de aprendizaje reducida</translation>
    </message>
    <message>
        <source>out of memory, retried</source>
        <translation>sin memoria, reintentado</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>reanudación</translation>
    </message>
    <message>
        <source>rolled back</source>
        <translation>vuelta atrás</translation>
    </message>
    <message>
        <source>data warning</source>
        <translation>aviso sobre los datos</translation>
    </message>
    <message>
        <source>not learning</source>
        <translation>no aprende</translation>
    </message>
    <message>
        <source>checkpoints deleted</source>
        <translation>puntos de control borrados</translation>
    </message>
</context>
<context>
    <name>entrena::app::JobRunner</name>
    <message>
        <source>The work failed with an unknown error.</source>
        <translation>El trabajo falló con un error desconocido.</translation>
    </message>
</context>
<context>
    <name>entrena::app::RunTableModel</name>
    <message>
        <source>running</source>
        <translation>en curso</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>terminada</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>detenida</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fallida</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>divergió</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>interrumpida</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimizador</translation>
    </message>
    <message>
        <source>Best val. accuracy</source>
        <translation>Mejor exactitud de val.</translation>
    </message>
    <message>
        <source>Test accuracy</source>
        <translation>Exactitud de prueba</translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation>Muestras/s</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Duración</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creada</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Etiquetas</translation>
    </message>
    <message>
        <source>Data set</source>
        <translation>Conjunto de datos</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>Planificador</translation>
    </message>
    <message>
        <source>Final loss</source>
        <translation>Pérdida final</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>Memoria máxima</translation>
    </message>
    <message>
        <source>No run store is open.</source>
        <translation>No hay ningún almacén de ejecuciones abierto.</translation>
    </message>
    <message>
        <source>The baseline of its data set: other runs are measured against its final validation accuracy, %1%.</source>
        <translation>La referencia de su conjunto de datos: las demás ejecuciones se miden contra su exactitud de validación final, %1%.</translation>
    </message>
    <message>
        <source>Reached the baseline's final validation accuracy (%1%) in %2 s; the baseline took %3 s.</source>
        <translation>Alcanzó la exactitud de validación final de la referencia (%1%) en %2 s; la referencia tardó %3 s.</translation>
    </message>
    <message>
        <source>Never reached the baseline's final validation accuracy (%1%).</source>
        <translation>Nunca alcanzó la exactitud de validación final de la referencia (%1%).</translation>
    </message>
    <message>
        <source>Warning: faster than the baseline (run %1) but its final %2 accuracy is %3 percentage points lower.</source>
        <translation>Aviso: más rápida que la referencia (ejecución %1), pero su exactitud final de %2 es %3 puntos porcentuales menor.</translation>
    </message>
    <message>
        <source>test</source>
        <translation>prueba</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>validación</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>referencia</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>no alcanzada</translation>
    </message>
    <message>
        <source> pp</source>
        <translation> pp</translation>
    </message>
    <message>
        <source>Speed-up vs baseline</source>
        <translation>Aceleración frente a la referencia</translation>
    </message>
    <message>
        <source>Δ accuracy vs baseline</source>
        <translation>Δ exactitud frente a la referencia</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>podada</translation>
    </message>
    <message numerus="yes">
        <source>On %n %1 sample(s) a difference under %2 percentage points is chance (95 %): cross-validate (entrena-cli cv) to tell these runs apart.</source>
        <translation><numerusform>Con %n muestra de %1, una diferencia de menos de %2 puntos porcentuales es azar (95 %): haga una validación cruzada (entrena-cli cv) para distinguir estas ejecuciones.</numerusform><numerusform>Con %n muestras de %1, una diferencia de menos de %2 puntos porcentuales es azar (95 %): haga una validación cruzada (entrena-cli cv) para distinguir estas ejecuciones.</numerusform></translation>
    </message>
</context>
<context>
    <name>entrena::ui::BatchSizeSearch</name>
    <message>
        <source>Find batch size</source>
        <translation>Buscar tamaño de lote</translation>
    </message>
    <message>
        <source>the batch-size search was stopped</source>
        <translation>se detuvo la búsqueda del tamaño de lote</translation>
    </message>
</context>
<context>
    <name>entrena::ui::BestSoFarChart</name>
    <message>
        <source>Wall time since the first trial (h)</source>
        <translation>Tiempo real desde la primera prueba (h)</translation>
    </message>
    <message>
        <source>Wall time since the first trial (min)</source>
        <translation>Tiempo real desde la primera prueba (min)</translation>
    </message>
    <message>
        <source>Wall time since the first trial (s)</source>
        <translation>Tiempo real desde la primera prueba (s)</translation>
    </message>
    <message>
        <source>Best so far</source>
        <translation>La mejor hasta ahora</translation>
    </message>
    <message>
        <source>A trial's epoch</source>
        <translation>Una época de una prueba</translation>
    </message>
    <message>
        <source>No trial has reached the end of an epoch yet.</source>
        <translation>Ninguna prueba ha llegado aún al final de una época.</translation>
    </message>
    <message>
        <source>Best so far against wall time</source>
        <translation>La mejor hasta ahora frente al tiempo real</translation>
    </message>
    <message>
        <source>%1 (%)</source>
        <translation>%1 (%)</translation>
    </message>
</context>
<context>
    <name>entrena::ui::CellSamplesDialog</name>
    <message>
        <source>Classifying the evaluated split again with the run's last checkpoint…</source>
        <translation>Clasificando de nuevo la partición evaluada con el último punto de control de la ejecución…</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>&amp;Abrir</translation>
    </message>
    <message>
        <source>Show in &amp;folder</source>
        <translation>&amp;Mostrar en la carpeta</translation>
    </message>
    <message>
        <source>Copy &amp;path</source>
        <translation>Co&amp;piar la ruta</translation>
    </message>
    <message>
        <source>Samples of one cell</source>
        <translation>Muestras de una celda</translation>
    </message>
    <message>
        <source>Open a confusion-matrix cell</source>
        <translation>Abrir una celda de la matriz de confusión</translation>
    </message>
    <message>
        <source>The samples cannot be listed: %1</source>
        <translation>No se pueden listar las muestras: %1</translation>
    </message>
    <message>
        <source>the test split</source>
        <translation>la partición de prueba</translation>
    </message>
    <message>
        <source>the validation split</source>
        <translation>la partición de validación</translation>
    </message>
    <message>
        <source>True %1, predicted %2</source>
        <translation>Verdadera %1, predicha %2</translation>
    </message>
    <message>
        <source>Copy &amp;line</source>
        <translation>Co&amp;piar la línea</translation>
    </message>
    <message>
        <source>&amp;Open the table</source>
        <translation>&amp;Abrir la tabla</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Línea</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Confianza</translation>
    </message>
    <message>
        <source>Column %1</source>
        <translation>Columna %1</translation>
    </message>
    <message>
        <source>Sample %1 of %2 (this data set's images have no file of their own)</source>
        <translation>Muestra %1 de %2 (las imágenes de este conjunto de datos no tienen archivo propio)</translation>
    </message>
    <message>
        <source>This data set's samples have no file of their own.</source>
        <translation>Las muestras de este conjunto de datos no tienen archivo propio.</translation>
    </message>
    <message>
        <source>Copied %1.</source>
        <translation>Copiado %1.</translation>
    </message>
    <message>
        <source>%1 in %2 that the model predicted right: %3, most confident first.</source>
        <translation>%1 en %2 que el modelo predijo bien: %3, primero las más seguras.</translation>
    </message>
    <message>
        <source>%1 in %2 that the model took for %3: %4, most confident first.</source>
        <translation>%1 en %2 que el modelo tomó por %3: %4, primero las más seguras.</translation>
    </message>
    <message>
        <source>Classified again by the last checkpoint of run %1 “%2” (epoch %3, step %4).</source>
        <translation>Clasificadas de nuevo por el último punto de control de la ejecución %1 «%2» (época %3, paso %4).</translation>
    </message>
    <message>
        <source>Samples of the split that could not be read again (damaged or deleted since): %1.</source>
        <translation>Muestras de la partición que no se pudieron leer de nuevo (dañadas o borradas desde entonces): %1.</translation>
    </message>
    <message>
        <source>Samples that land in another cell than when the run ended, or are new or gone: %1 (its data changed since, or another device rounded differently).</source>
        <translation>Muestras que caen en otra celda que al terminar la ejecución, o que son nuevas o faltan: %1 (sus datos cambiaron desde entonces, u otro dispositivo redondeó de otro modo).</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Opened %1.</source>
        <translation>Abierto %1.</translation>
    </message>
    <message>
        <source>Nothing on this computer opens %1.</source>
        <translation>Ningún programa de este equipo abre %1.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::ChartMenu</name>
    <message>
        <source>Cannot write %1: the folder does not exist.</source>
        <translation>No se puede escribir %1: la carpeta no existe.</translation>
    </message>
    <message>
        <source>Cannot write %1: check that the folder is writable and the disk has space.</source>
        <translation>No se puede escribir %1: compruebe que la carpeta admite escritura y que queda espacio en el disco.</translation>
    </message>
    <message>
        <source>Cannot write %1: the file could not be replaced.</source>
        <translation>No se puede escribir %1: no se pudo reemplazar el archivo.</translation>
    </message>
    <message>
        <source>Export as PNG…</source>
        <translation>Exportar como PNG…</translation>
    </message>
    <message>
        <source>Export as SVG…</source>
        <translation>Exportar como SVG…</translation>
    </message>
    <message>
        <source>Export as PDF…</source>
        <translation>Exportar como PDF…</translation>
    </message>
    <message>
        <source>Copy data as CSV</source>
        <translation>Copiar los datos como CSV</translation>
    </message>
    <message>
        <source>%1 files (*.%2)</source>
        <translation>Archivos %1 (*.%2)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Exportar gráfica</translation>
    </message>
    <message>
        <source>Exported from Entrena</source>
        <translation>Exportada desde Entrena</translation>
    </message>
    <message>
        <source>Cannot tell the image format from “%1”: name the file .png, .svg or .pdf.</source>
        <translation>No se reconoce el formato de imagen de «%1»: use la extensión .png, .svg o .pdf.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::ClusterScriptDialog</name>
    <message>
        <source>Launch on a cluster</source>
        <translation>Lanzar en un clúster</translation>
    </message>
    <message>
        <source>Machines (nodes):</source>
        <translation>Máquinas (nodos):</translation>
    </message>
    <message>
        <source>GPUs per machine:</source>
        <translation>GPU por máquina:</translation>
    </message>
    <message>
        <source>Processes per machine:</source>
        <translation>Procesos por máquina:</translation>
    </message>
    <message>
        <source>Every machine needs entrena-cli on its PATH and the data set at the configured path. Rank 0 records the run in its run store.</source>
        <translation>Cada máquina necesita entrena-cli en su PATH y el conjunto de datos en la ruta configurada. El rango 0 registra la ejecución en su almacén.</translation>
    </message>
    <message>
        <source>Copy command</source>
        <translation>Copiar la orden</translation>
    </message>
    <message>
        <source>Copy script</source>
        <translation>Copiar el script</translation>
    </message>
    <message>
        <source>Save script and configuration…</source>
        <translation>Guardar el script y la configuración…</translation>
    </message>
    <message>
        <source>Save the sbatch script</source>
        <translation>Guardar el script de sbatch</translation>
    </message>
    <message>
        <source>Slurm batch scripts (*.sbatch *.sh)</source>
        <translation>Scripts de lotes de Slurm (*.sbatch *.sh)</translation>
    </message>
    <message>
        <source>On every machine (torchrun):</source>
        <translation>En cada máquina (torchrun):</translation>
    </message>
    <message>
        <source>Or submit to Slurm with sbatch:</source>
        <translation>O envíelo a Slurm con sbatch:</translation>
    </message>
    <message>
        <source>Command for torchrun</source>
        <translation>Orden para torchrun</translation>
    </message>
    <message>
        <source>Slurm batch script</source>
        <translation>Script por lotes de Slurm</translation>
    </message>
</context>
<context>
    <name>entrena::ui::CompareChart</name>
    <message>
        <source>%1 (smoothed)</source>
        <translation>%1 (suavizada)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>paso</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>época</translation>
    </message>
    <message>
        <source>samples seen</source>
        <translation>muestras vistas</translation>
    </message>
    <message>
        <source>wall time</source>
        <translation>hora</translation>
    </message>
    <message>
        <source>seconds since start</source>
        <translation>segundos desde el inicio</translation>
    </message>
</context>
<context>
    <name>entrena::ui::CompareView</name>
    <message numerus="yes">
        <source>Loading %n run(s)…</source>
        <translation><numerusform>Cargando %n ejecución…</numerusform><numerusform>Cargando %n ejecuciones…</numerusform></translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>Comparar ejecuciones</translation>
    </message>
    <message>
        <source>X-axis:</source>
        <translation>Eje X:</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Paso</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Samples seen</source>
        <translation>Muestras vistas</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>Hora</translation>
    </message>
    <message>
        <source>Time since start</source>
        <translation>Tiempo desde el inicio</translation>
    </message>
    <message>
        <source>Smoothing: %1</source>
        <translation>Suavizado: %1</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>Escala logarítmica</translation>
    </message>
    <message>
        <source>Only the settings that differ</source>
        <translation>Solo los ajustes que difieren</translation>
    </message>
    <message>
        <source>Time to validation accuracy:</source>
        <translation>Tiempo hasta la exactitud de validación:</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Resumen</translation>
    </message>
    <message>
        <source>Hyper-parameters</source>
        <translation>Hiperparámetros</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>Pérdida de entrenamiento</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>Pérdida de validación</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>Exactitud de validación</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>Memoria (MiB)</translation>
    </message>
    <message>
        <source>Throughput (samples/s)</source>
        <translation>Rendimiento (muestras/s)</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>Ajuste</translation>
    </message>
    <message numerus="yes">
        <source>%n setting(s) are the same in every run.</source>
        <translation><numerusform>%n ajuste es igual en todas las ejecuciones.</numerusform><numerusform>%n ajustes son iguales en todas las ejecuciones.</numerusform></translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>Métrica</translation>
    </message>
    <message>
        <source>Time to %1 validation accuracy (s)</source>
        <translation>Tiempo hasta %1 de exactitud de validación (s)</translation>
    </message>
    <message>
        <source>best</source>
        <translation>mejor</translation>
    </message>
    <message>
        <source>Reading every point for zooming in…</source>
        <translation>Leyendo todos los puntos para poder ampliar…</translation>
    </message>
    <message>
        <source>Speed-up vs baseline (×)</source>
        <translation>Aceleración frente a la referencia (×)</translation>
    </message>
    <message>
        <source>Δ final accuracy vs baseline (pp)</source>
        <translation>Δ exactitud final frente a la referencia (pp)</translation>
    </message>
    <message>
        <source>Faster than the baseline (run %1), but its final accuracy is lower by more than the tolerance: check that it is not a worse model.</source>
        <translation>Más rápida que la referencia (ejecución %1), pero su exactitud final es menor en más de la tolerancia: compruebe que no sea un modelo peor.</translation>
    </message>
    <message>
        <source>Smooths series of %1 points or more (a debiased moving average, as TensorBoard's); series with fewer points, such as one per epoch, are drawn as they are.</source>
        <translation>Suaviza las series de %1 puntos o más (una media móvil sin sesgo, como la de TensorBoard); las series con menos puntos, como las de una por época, se dibujan tal cual.</translation>
    </message>
    <message>
        <source>Per class</source>
        <translation>Por clase</translation>
    </message>
    <message>
        <source>Smoothing needs series of %1 points or more; these are drawn as they are.</source>
        <translation>El suavizado necesita series de %1 puntos o más; estas se dibujan tal cual.</translation>
    </message>
    <message numerus="yes">
        <source>Validated on %n sample(s): two validation accuracies must differ by more than %1 percentage points to mean something (at 95 % confidence).</source>
        <translation><numerusform>Validada con %n muestra: dos exactitudes de validación deben diferir en más de %1 puntos porcentuales para significar algo (con un 95 % de confianza).</numerusform><numerusform>Validadas con %n muestras: dos exactitudes de validación deben diferir en más de %1 puntos porcentuales para significar algo (con un 95 % de confianza).</numerusform></translation>
    </message>
    <message>
        <source>The best two runs are closer than that: cross-validate them (Run → Cross-validate…) to tell them apart.</source>
        <translation>Las dos mejores ejecuciones están más cerca que eso: haga una validación cruzada (Ejecutar → Validación cruzada…) para distinguirlas.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::ConfusionMatrixChart</name>
    <message>
        <source>Predicted class</source>
        <translation>Clase predicha</translation>
    </message>
    <message>
        <source>True class</source>
        <translation>Clase verdadera</translation>
    </message>
    <message>
        <source>True: %1
Predicted: %2
%3 samples (%4% of the true class)</source>
        <translation>Verdadera: %1
Predicha: %2
%3 muestras (%4 % de la clase verdadera)</translation>
    </message>
    <message>
        <source>Click to see them.</source>
        <translation>Haga clic para verlas.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::CrossValidationDialog</name>
    <message>
        <source>Experiment %1 %2.</source>
        <translation>Experimento %1 %2.</translation>
    </message>
    <message>
        <source>The cross-validation failed: %1</source>
        <translation>La validación cruzada falló: %1</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Iniciando…</translation>
    </message>
    <message>
        <source>Stopping: each fold finishes its step and saves a checkpoint…</source>
        <translation>Deteniendo: cada pliegue termina su paso y guarda un punto de control…</translation>
    </message>
    <message>
        <source>A cross-validation is running</source>
        <translation>Hay una validación cruzada en curso</translation>
    </message>
    <message numerus="yes">
        <source>Experiment %1: %n fold run(s).</source>
        <translation><numerusform>Experimento %1: %n ejecución de pliegue.</numerusform><numerusform>Experimento %1: %n ejecuciones de pliegue.</numerusform></translation>
    </message>
    <message>
        <source>Fold run %1 started (run %2): %3</source>
        <translation>Ejecución de pliegue %1 iniciada (ejecución %2): %3</translation>
    </message>
    <message>
        <source>Fold run %1 (run %2) ended: best validation accuracy %3 %.</source>
        <translation>La ejecución de pliegue %1 (ejecución %2) terminó: mejor exactitud de validación %3 %.</translation>
    </message>
    <message>
        <source>Fold run %1 (run %2) ended without a validation accuracy.</source>
        <translation>La ejecución de pliegue %1 (ejecución %2) terminó sin exactitud de validación.</translation>
    </message>
    <message>
        <source>%1 of %2 fold runs finished.</source>
        <translation>%1 de %2 ejecuciones de pliegue terminadas.</translation>
    </message>
    <message>
        <source>Validation accuracy: &lt;b&gt;%1 % ± %2&lt;/b&gt; (mean ± sd)</source>
        <translation>Exactitud de validación: &lt;b&gt;%1 % ± %2&lt;/b&gt; (media ± desv. típica)</translation>
    </message>
    <message>
        <source>Test accuracy: &lt;b&gt;%1 % ± %2&lt;/b&gt; (mean ± sd)</source>
        <translation>Exactitud de prueba: &lt;b&gt;%1 % ± %2&lt;/b&gt; (media ± desv. típica)</translation>
    </message>
    <message>
        <source>Cannot read the result: %1</source>
        <translation>No se puede leer el resultado: %1</translation>
    </message>
    <message>
        <source>Cross-validate</source>
        <translation>Validación cruzada</translation>
    </message>
    <message>
        <source>The form's configuration “%1” is trained once per fold: the training data is dealt into folds, and each fold in turn is held out for validation. Every fold is a run in the store; the result is each figure's mean ± standard deviation over the folds, which tells runs apart far better than one small validation split.</source>
        <translation>La configuración del formulario «%1» se entrena una vez por pliegue: los datos de entrenamiento se reparten en pliegues y cada pliegue, por turno, se reserva para la validación. Cada pliegue es una ejecución del almacén; el resultado es la media ± la desviación típica de cada cifra sobre los pliegues, que distingue las ejecuciones mucho mejor que una sola partición de validación pequeña.</translation>
    </message>
    <message>
        <source>Folds:</source>
        <translation>Pliegues:</translation>
    </message>
    <message>
        <source>Keep each class's share in every fold (stratified)</source>
        <translation>Mantener la proporción de cada clase en cada pliegue (estratificado)</translation>
    </message>
    <message>
        <source>Repeats:</source>
        <translation>Repeticiones:</translation>
    </message>
    <message>
        <source>Each repeat uses the next seed, so it deals other folds</source>
        <translation>Cada repetición usa la semilla siguiente, así que reparte otros pliegues</translation>
    </message>
    <message>
        <source>Folds at once:</source>
        <translation>Pliegues a la vez:</translation>
    </message>
    <message>
        <source>The CPU's cores are divided among the folds that train at once</source>
        <translation>Los núcleos de la CPU se reparten entre los pliegues que se entrenan a la vez</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Nombre:</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Iniciar</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <source>Open experiment</source>
        <translation>Abrir el experimento</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Cerrar</translation>
    </message>
    <message>
        <source>Stopped. The finished folds are kept, and the others saved checkpoints: Resume sweep in the experiment's window (or entrena-cli cv --resume %1) goes on with the same folds.</source>
        <translation>Detenida. Los pliegues terminados se conservan y los demás guardaron puntos de control: Reanudar barrido en la ventana del experimento (o entrena-cli cv --resume %1) sigue con los mismos pliegues.</translation>
    </message>
    <message>
        <source>Stop the cross-validation and quit? Its folds save checkpoints; Resume sweep in its experiment's window (or entrena-cli cv --resume %1) continues it.</source>
        <translation>¿Detener la validación cruzada y salir? Sus pliegues guardan puntos de control; Reanudar barrido en la ventana de su experimento (o entrena-cli cv --resume %1) la continúa.</translation>
    </message>
    <message numerus="yes">
        <source>Too little data for %1 stratified folds: the class “%2” has only %n training sample(s), and every fold needs at least one of each class. Use fewer folds, or more training samples.</source>
        <translation><numerusform>Datos insuficientes para %1 pliegues estratificados: la clase «%2» tiene solo %n muestra de entrenamiento, y cada pliegue necesita al menos una de cada clase. Use menos pliegues o más muestras de entrenamiento.</numerusform><numerusform>Datos insuficientes para %1 pliegues estratificados: la clase «%2» tiene solo %n muestras de entrenamiento, y cada pliegue necesita al menos una de cada clase. Use menos pliegues o más muestras de entrenamiento.</numerusform></translation>
    </message>
    <message>
        <source>%1 %2 % ± %3</source>
        <translation>%1 %2 % ± %3</translation>
    </message>
    <message>
        <source>Recall, the classes' mean: &lt;b&gt;%1 % ± %2&lt;/b&gt;</source>
        <translation>Exhaustividad, media de las clases: &lt;b&gt;%1 % ± %2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Recall of each class, lowest first: %1</source>
        <translation>Exhaustividad de cada clase, de menor a mayor: %1</translation>
    </message>
    <message>
        <source>Progress of the folds</source>
        <translation>Progreso de los pliegues</translation>
    </message>
</context>
<context>
    <name>entrena::ui::DataPreviewDialog</name>
    <message>
        <source>Other samples</source>
        <translation>Otras muestras</translation>
    </message>
    <message>
        <source>Data: %1</source>
        <translation>Datos: %1</translation>
    </message>
    <message>
        <source>Draw other pictures of each class</source>
        <translation>Sacar otras imágenes de cada clase</translation>
    </message>
    <message>
        <source>Reading the data…</source>
        <translation>Leyendo los datos…</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>Leyendo %1…</translation>
    </message>
    <message>
        <source>Preview data</source>
        <translation>Vista previa de los datos</translation>
    </message>
    <message>
        <source>grey</source>
        <translation>en gris</translation>
    </message>
    <message>
        <source>colour</source>
        <translation>en color</translation>
    </message>
    <message>
        <source>Each class with its training samples (a table has no pictures to show).</source>
        <translation>Cada clase con sus muestras de entrenamiento (una tabla no tiene imágenes que mostrar).</translation>
    </message>
    <message>
        <source>⚠ Skipped files: %1</source>
        <translation>⚠ Archivos omitidos: %1</translation>
    </message>
    <message>
        <source>The data cannot be read.</source>
        <translation>No se pueden leer los datos.</translation>
    </message>
    <message>
        <source>Each class with its training samples and up to %1 of its pictures, drawn at random; the pictures are %2×%3 pixels, %4.</source>
        <translation>Cada clase con sus muestras de entrenamiento y hasta %1 de sus imágenes, al azar; las imágenes son de %2×%3 píxeles, %4.</translation>
    </message>
    <message>
        <source>%1 classes, %2 training samples in all (the validation share included).</source>
        <translation>%1 clases, %2 muestras de entrenamiento en total (incluida la parte de validación).</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Clase</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Muestras</translation>
    </message>
    <message>
        <source>Pictures</source>
        <translation>Imágenes</translation>
    </message>
    <message>
        <source>⚠ Warning: %1</source>
        <translation>⚠ Aviso: %1</translation>
    </message>
    <message>
        <source>Balance the classes</source>
        <translation>Equilibrar las clases</translation>
    </message>
    <message>
        <source>Train with the loss weighted by class (data.balance: weights), so that the small classes count as much as the large ones</source>
        <translation>Entrenar con la pérdida ponderada por clase (data.balance: weights), para que las clases pequeñas cuenten tanto como las grandes</translation>
    </message>
    <message>
        <source>The run will weight the loss by class (Balance classes in the form).</source>
        <translation>La ejecución ponderará la pérdida por clase (Equilibrar clases en el formulario).</translation>
    </message>
    <message>
        <source>The form already balances them (Balance classes: %1).</source>
        <translation>El formulario ya las equilibra (Equilibrar clases: %1).</translation>
    </message>
    <message>
        <source>weight the loss by class</source>
        <translation>ponderar la pérdida por clase</translation>
    </message>
    <message>
        <source>draw classes evenly</source>
        <translation>extraer las clases por igual</translation>
    </message>
    <message>
        <source>the classes are unbalanced: “%1” has %2 samples, “%3” %4 (%5× fewer); a model can score well by favouring the large classes, so compare per-class recall (run details → Evaluation), balance them, or gather more of the small ones.</source>
        <translation>las clases están desequilibradas: «%1» tiene %2 muestras, «%3» %4 (%5 veces menos); un modelo puede puntuar bien favoreciendo las clases grandes, así que compare la exhaustividad por clase (detalles de la ejecución → Evaluación), equilíbrelas o reúna más muestras de las pequeñas.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::DataShapeProbe</name>
    <message>
        <source>Read the data's shape</source>
        <translation>Leer la forma de los datos</translation>
    </message>
</context>
<context>
    <name>entrena::ui::DevicePicker</name>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>cuda:%1 — %2 (%3 GiB)</source>
        <translation>cuda:%1 — %2 (%3 GiB)</translation>
    </message>
    <message>
        <source>CPU processes:</source>
        <translation>Procesos de CPU:</translation>
    </message>
    <message>
        <source>Several processes train data-parallel (Gloo), each on its share of the cores and of every batch; the batch size is per process.</source>
        <translation>Varios procesos entrenan en paralelo de datos (Gloo), cada uno con su parte de los núcleos y de cada lote; el tamaño de lote es por proceso.</translation>
    </message>
    <message numerus="yes">
        <source>Data-parallel: %n processes, each with its own batch of the set size.</source>
        <translation><numerusform>Paralelo de datos: %n proceso, con su propio lote del tamaño fijado.</numerusform><numerusform>Paralelo de datos: %n procesos, cada uno con su propio lote del tamaño fijado.</numerusform></translation>
    </message>
    <message>
        <source>One process.</source>
        <translation>Un proceso.</translation>
    </message>
    <message>
        <source>Devices to train on</source>
        <translation>Dispositivos para entrenar</translation>
    </message>
</context>
<context>
    <name>entrena::ui::DevicesDialog</name>
    <message>
        <source>About Entrena and devices</source>
        <translation>Acerca de Entrena y dispositivos</translation>
    </message>
    <message>
        <source>A workbench for training neural networks faster.</source>
        <translation>Un banco de trabajo para entrenar redes neuronales más rápido.</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>%1 (%2 logical CPUs, %3 physical cores, %4)</source>
        <translation>%1 (%2 CPU lógicas, %3 núcleos físicos, %4)</translation>
    </message>
    <message>
        <source>LibTorch</source>
        <translation>LibTorch</translation>
    </message>
    <message>
        <source>%1, %2 threads</source>
        <translation>%1, %2 hilos</translation>
    </message>
    <message>
        <source>BLAS</source>
        <translation>BLAS</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>no se encontró</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Entorno</translation>
    </message>
    <message>
        <source>Matrix multiply</source>
        <translation>Producto de matrices</translation>
    </message>
    <message>
        <source>%1 GFLOP/s (fp32, measured)</source>
        <translation>%1 GFLOP/s (fp32, medido)</translation>
    </message>
    <message>
        <source>%1, %2 GiB, compute capability %3</source>
        <translation>%1, %2 GiB, capacidad de cómputo %3</translation>
    </message>
    <message>
        <source>Warning:</source>
        <translation>Advertencia:</translation>
    </message>
    <message>
        <source>NVML</source>
        <translation>NVML</translation>
    </message>
    <message>
        <source>loaded: device memory and utilisation as the driver sees them</source>
        <translation>cargada: memoria y uso del dispositivo según el controlador</translation>
    </message>
    <message>
        <source>%1, one thread</source>
        <translation>%1, un hilo</translation>
    </message>
    <message>
        <source>left as it is</source>
        <translation>tal como estaba</translation>
    </message>
    <message>
        <source>not available (no NVIDIA driver library): GPU memory is read from LibTorch alone</source>
        <translation>no disponible (falta la biblioteca del controlador de NVIDIA): la memoria de la GPU se lee solo de LibTorch</translation>
    </message>
</context>
<context>
    <name>entrena::ui::DiskUseBar</name>
    <message>
        <source>On disk: %1</source>
        <translation>En disco: %1</translation>
    </message>
    <message>
        <source>Checkpoints and evaluation images of every run, archived ones included: %1. The store file: %2.</source>
        <translation>Puntos de control e imágenes de evaluación de todas las ejecuciones, archivadas incluidas: %1. El archivo del almacén: %2.</translation>
    </message>
    <message>
        <source>Free space…</source>
        <translation>Liberar espacio…</translation>
    </message>
    <message>
        <source>Delete the checkpoints of archived and pruned runs; their metrics stay.</source>
        <translation>Borrar los puntos de control de las ejecuciones archivadas y podadas; sus métricas se conservan.</translation>
    </message>
    <message>
        <source>Free disk space</source>
        <translation>Liberar espacio</translation>
    </message>
    <message>
        <source>Run %1 has no checkpoint files to delete.</source>
        <translation>La ejecución %1 no tiene archivos de puntos de control que borrar.</translation>
    </message>
    <message>
        <source>None of these runs has checkpoint files to delete.</source>
        <translation>Ninguna de estas ejecuciones tiene archivos de puntos de control que borrar.</translation>
    </message>
    <message>
        <source>run %1 “%2”</source>
        <translation>la ejecución %1 «%2»</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation><numerusform>%n ejecución</numerusform><numerusform>%n ejecuciones</numerusform></translation>
    </message>
    <message>
        <source>Delete the checkpoints of %1, freeing %2?

Their metrics, charts and evaluation stay; they can no longer be resumed or their weights exported.</source>
        <translation>¿Borrar los puntos de control de %1 y liberar %2?

Sus métricas, gráficas y evaluación se conservan; ya no se podrán reanudar ni exportar sus pesos.</translation>
    </message>
    <message>
        <source>No archived or pruned run has checkpoints to delete. Archive the runs you no longer need (right-click → Archive), or delete one run's checkpoints from its right-click menu.</source>
        <translation>Ninguna ejecución archivada o podada tiene puntos de control que borrar. Archive las ejecuciones que ya no necesite (clic derecho → Archivar), o borre los puntos de control de una ejecución desde su menú del clic derecho.</translation>
    </message>
    <message>
        <source>Freed %1. The runs' metrics, charts and evaluation are kept.</source>
        <translation>Se liberaron %1. Las métricas, los gráficos y la evaluación de las ejecuciones se conservan.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::EvaluationTab</name>
    <message>
        <source>This run has no evaluation. Entrena measures what a model gets wrong, class by class, when a run finishes: runs that failed or were stopped, and runs from before this version, have none.</source>
        <translation>Esta ejecución no tiene evaluación. Entrena mide en qué se equivoca un modelo, clase por clase, cuando una ejecución termina: las que fallaron o se detuvieron, y las de antes de esta versión, no la tienen.</translation>
    </message>
    <message>
        <source>the test split</source>
        <translation>la partición de prueba</translation>
    </message>
    <message>
        <source>the validation split</source>
        <translation>la partición de validación</translation>
    </message>
    <message>
        <source>On %1: %2 samples, %3% right. Rows are the true class, columns what the model predicted; the colour is the share of the row.</source>
        <translation>En %1: %2 muestras, %3 % acertadas. Las filas son la clase verdadera, las columnas lo que predijo el modelo; el color es la parte de la fila.</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Clase</translation>
    </message>
    <message>
        <source>Precision (%)</source>
        <translation>Precisión (%)</translation>
    </message>
    <message>
        <source>Recall (%)</source>
        <translation>Exhaustividad (%)</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>Soporte</translation>
    </message>
    <message>
        <source>Most confidently wrong:</source>
        <translation>Errores con más confianza:</translation>
    </message>
    <message>
        <source>(no picture)</source>
        <translation>(sin imagen)</translation>
    </message>
    <message>
        <source>%1 → %2
%3% sure</source>
        <translation>%1 → %2
%3 % de confianza</translation>
    </message>
    <message>
        <source>Sample %1 of the split</source>
        <translation>Muestra %1 de la partición</translation>
    </message>
    <message>
        <source>Click to see every sample of this pair.</source>
        <translation>Haga clic para ver todas las muestras de este par.</translation>
    </message>
    <message>
        <source>Click a cell to see its samples.</source>
        <translation>Haga clic en una celda para ver sus muestras.</translation>
    </message>
    <message>
        <source>Of the samples predicted as this class, the share that are of it.</source>
        <translation>De las muestras predichas como esta clase, la proporción que lo son.</translation>
    </message>
    <message>
        <source>Of the samples of this class, the share predicted as it.</source>
        <translation>De las muestras de esta clase, la proporción predicha como tal.</translation>
    </message>
    <message>
        <source>The samples of this class in the split.</source>
        <translation>Las muestras de esta clase en la partición.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::ExperimentView</name>
    <message>
        <source>Load experiment</source>
        <translation>Cargar el experimento</translation>
    </message>
    <message>
        <source>Cannot read the experiment: %1</source>
        <translation>No se puede leer el experimento: %1</translation>
    </message>
    <message>
        <source>trial %1 (run %2)</source>
        <translation>prueba %1 (ejecución %2)</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>ejecución %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2, %3 — %4.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2, %3 — %4.</translation>
    </message>
    <message>
        <source>Trials: %1</source>
        <translation>Pruebas: %1</translation>
    </message>
    <message>
        <source>(%1 pruned)</source>
        <translation>(%1 podadas)</translation>
    </message>
    <message>
        <source>Best: trial %1 (run %2), %3.</source>
        <translation>Mejor: prueba %1 (ejecución %2), %3.</translation>
    </message>
    <message>
        <source>%1 of %2 trials inside the brushed ranges.</source>
        <translation>%1 de %2 pruebas dentro de los rangos marcados.</translation>
    </message>
    <message>
        <source>Drag along an axis of the chart to narrow the trials to a range.</source>
        <translation>Arrastre a lo largo de un eje del gráfico para limitar las pruebas a un rango.</translation>
    </message>
    <message>
        <source>Experiment %1 — %2</source>
        <translation>Experimento %1 — %2</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Prueba</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ejecución</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Best validation accuracy</source>
        <translation>Mejor exactitud de validación</translation>
    </message>
    <message>
        <source>Lowest validation loss</source>
        <translation>Menor pérdida de validación</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Épocas</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Pruebas</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Paso</translation>
    </message>
    <message>
        <source>Copied from</source>
        <translation>Copiada de</translation>
    </message>
    <message>
        <source>Values (before → after)</source>
        <translation>Valores (antes → después)</translation>
    </message>
    <message>
        <source>Lineage</source>
        <translation>Linaje</translation>
    </message>
    <message>
        <source>Population-based training: at each step listed, a trial took the weights, optimizer state and values of a better one, then perturbed the values.</source>
        <translation>Entrenamiento basado en población: en cada paso de la lista, una prueba tomó los pesos, el estado del optimizador y los valores de otra mejor, y después perturbó los valores.</translation>
    </message>
    <message>
        <source>Clear ranges</source>
        <translation>Quitar los rangos</translation>
    </message>
    <message>
        <source>Compare selected</source>
        <translation>Comparar las seleccionadas</translation>
    </message>
    <message>
        <source>Opens the selected trials (or, with none selected, those shown) in the compare view.</source>
        <translation>Abre las pruebas seleccionadas (o, si no hay ninguna, las que se muestran) en la vista de comparación.</translation>
    </message>
    <message>
        <source>running</source>
        <translation>en curso</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>terminado</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>detenido</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fallido</translation>
    </message>
    <message>
        <source>Resume sweep</source>
        <translation>Reanudar barrido</translation>
    </message>
    <message>
        <source>Continues the stopped sweep: running trials go on from their checkpoints, and it ends with the trials it would have had.</source>
        <translation>Continúa el barrido detenido: las pruebas en curso siguen desde sus puntos de control, y termina con las pruebas que habría tenido.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %n-fold cross-validation — %2.</source>
        <translation><numerusform>&lt;b&gt;%1&lt;/b&gt;: validación cruzada de %n pliegue — %2.</numerusform><numerusform>&lt;b&gt;%1&lt;/b&gt;: validación cruzada de %n pliegues — %2.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Repeated %n times, each with its own folds.</source>
        <translation><numerusform>Repetida %n vez, con sus propios pliegues.</numerusform><numerusform>Repetida %n veces, cada una con sus propios pliegues.</numerusform></translation>
    </message>
    <message>
        <source>%1 of %2 fold runs finished.</source>
        <translation>%1 de %2 ejecuciones de pliegue terminadas.</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>Exactitud de validación</translation>
    </message>
    <message>
        <source>Test accuracy</source>
        <translation>Exactitud de prueba</translation>
    </message>
    <message>
        <source>%1: &lt;b&gt;%2 % ± %3&lt;/b&gt; (mean ± sd; folds: %4)</source>
        <translation>%1: &lt;b&gt;%2 % ± %3&lt;/b&gt; (media ± desv. típica; pliegues: %4)</translation>
    </message>
    <message numerus="yes">
        <source>Each trial is cross-validated on %n folds; its value is their mean.</source>
        <translation><numerusform>Cada prueba se valida de forma cruzada en %n pliegue; su valor es su media.</numerusform><numerusform>Cada prueba se valida de forma cruzada en %n pliegues; su valor es su media.</numerusform></translation>
    </message>
    <message>
        <source>Best: trial %1 (its first fold is run %2), %3 over its folds.</source>
        <translation>Mejor: prueba %1 (su primer pliegue es la ejecución %2), %3 sobre sus pliegues.</translation>
    </message>
    <message>
        <source>Best mean validation accuracy</source>
        <translation>Mejor exactitud de validación media</translation>
    </message>
    <message>
        <source>Lowest mean validation loss</source>
        <translation>Menor pérdida de validación media</translation>
    </message>
</context>
<context>
    <name>entrena::ui::ExperimentsPanel</name>
    <message>
        <source>%1 (%2 pruned)</source>
        <translation>%1 (%2 podadas)</translation>
    </message>
    <message>
        <source>accuracy %1 %</source>
        <translation>exactitud %1 %</translation>
    </message>
    <message>
        <source>loss %1</source>
        <translation>pérdida %1</translation>
    </message>
    <message>
        <source>Sweeps over configurations (Run → Sweep…, or entrena-cli sweep). Open one to see its trials.</source>
        <translation>Barridos de configuraciones (Ejecutar → Barrido…, o entrena-cli sweep). Abra uno para ver sus pruebas.</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Método</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Pruebas</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Mejor</translation>
    </message>
    <message>
        <source>Created (UTC)</source>
        <translation>Creado (UTC)</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>Experimentos</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Abrir</translation>
    </message>
    <message>
        <source>cross-validation</source>
        <translation>validación cruzada</translation>
    </message>
    <message>
        <source>accuracy %1 % ± %2 (mean ± sd)</source>
        <translation>exactitud %1 % ± %2 (media ± desv. típica)</translation>
    </message>
    <message numerus="yes">
        <source>(mean of %n folds)</source>
        <translation><numerusform>(media de %n pliegue)</numerusform><numerusform>(media de %n pliegues)</numerusform></translation>
    </message>
</context>
<context>
    <name>entrena::ui::FoldChart</name>
    <message>
        <source>fold</source>
        <translation>pliegue</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>validation accuracy</source>
        <translation>exactitud de validación</translation>
    </message>
    <message>
        <source>recall, the classes' mean</source>
        <translation>exhaustividad, media de las clases</translation>
    </message>
    <message>
        <source>mean accuracy</source>
        <translation>exactitud media</translation>
    </message>
    <message>
        <source>± one standard deviation</source>
        <translation>± una desviación típica</translation>
    </message>
    <message>
        <source>Folds chart</source>
        <translation>Gráfico de los pliegues</translation>
    </message>
    <message>
        <source>Each fold's validation accuracy and recall, with the accuracy's mean and spread over the folds</source>
        <translation>La exactitud de validación y la exhaustividad de cada pliegue, con la media y la dispersión de la exactitud entre los pliegues</translation>
    </message>
</context>
<context>
    <name>entrena::ui::KeyLabels</name>
    <message>
        <source>Random seed:</source>
        <translation>Semilla aleatoria:</translation>
    </message>
    <message>
        <source>Fold:</source>
        <translation>Pliegue:</translation>
    </message>
    <message>
        <source>Folds:</source>
        <translation>Pliegues:</translation>
    </message>
    <message>
        <source>Validation share:</source>
        <translation>Parte para validación:</translation>
    </message>
    <message>
        <source>Balance classes:</source>
        <translation>Equilibrar clases:</translation>
    </message>
    <message>
        <source>Nesterov momentum:</source>
        <translation>Momento de Nesterov:</translation>
    </message>
    <message>
        <source>Momentum dampening:</source>
        <translation>Amortiguación del momento:</translation>
    </message>
    <message>
        <source>Training samples used:</source>
        <translation>Muestras de entrenamiento usadas:</translation>
    </message>
    <message>
        <source>Test samples used:</source>
        <translation>Muestras de prueba usadas:</translation>
    </message>
    <message>
        <source>Steps at most:</source>
        <translation>Pasos como máximo:</translation>
    </message>
    <message>
        <source>Checkpoints kept:</source>
        <translation>Puntos de control conservados:</translation>
    </message>
    <message>
        <source>Early stop watches:</source>
        <translation>La parada temprana observa:</translation>
    </message>
    <message>
        <source>Early stop's smallest improvement:</source>
        <translation>Mejora mínima de la parada temprana:</translation>
    </message>
    <message>
        <source>Loss spike that rolls back:</source>
        <translation>Pico de pérdida que hace volver atrás:</translation>
    </message>
    <message>
        <source>Learning rate after a rollback:</source>
        <translation>Tasa de aprendizaje tras volver atrás:</translation>
    </message>
    <message>
        <source>Figure watched:</source>
        <translation>Cifra observada:</translation>
    </message>
    <message>
        <source>Better is:</source>
        <translation>Mejor es:</translation>
    </message>
    <message>
        <source>Smallest improvement:</source>
        <translation>Mejora mínima:</translation>
    </message>
    <message>
        <source>Improvement measured:</source>
        <translation>Mejora medida:</translation>
    </message>
    <message>
        <source>Cool-down (epochs):</source>
        <translation>Enfriamiento (épocas):</translation>
    </message>
    <message>
        <source>Lowest learning rate:</source>
        <translation>Tasa de aprendizaje mínima:</translation>
    </message>
    <message>
        <source>Smallest reduction:</source>
        <translation>Reducción mínima:</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>Tarea:</translation>
    </message>
</context>
<context>
    <name>entrena::ui::LiveCharts</name>
    <message>
        <source>Training loss</source>
        <translation>Pérdida de entrenamiento</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validación</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Tasa de aprendizaje</translation>
    </message>
    <message>
        <source>per step</source>
        <translation>por paso</translation>
    </message>
    <message>
        <source>epoch mean</source>
        <translation>media de la época</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>pérdida</translation>
    </message>
    <message>
        <source>accuracy (right axis)</source>
        <translation>exactitud (eje der.)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>paso</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>época</translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>Memoria (MiB)</translation>
    </message>
    <message>
        <source>process resident</source>
        <translation>residente del proceso</translation>
    </message>
    <message>
        <source>device allocated</source>
        <translation>asignada en el dispositivo</translation>
    </message>
    <message>
        <source>device reserved</source>
        <translation>reservada en el dispositivo</translation>
    </message>
    <message>
        <source>device peak</source>
        <translation>pico del dispositivo</translation>
    </message>
    <message>
        <source>device total</source>
        <translation>total del dispositivo</translation>
    </message>
    <message>
        <source>device used, all processes (NVML)</source>
        <translation>usada en el dispositivo, todos los procesos (NVML)</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rango %1</translation>
    </message>
    <message>
        <source>The loss of each logged step,
once a run starts</source>
        <translation>La pérdida de cada paso,
al empezar una ejecución</translation>
    </message>
    <message>
        <source>Validation loss and accuracy
after each epoch</source>
        <translation>Pérdida y exactitud
de validación
tras cada época</translation>
    </message>
    <message>
        <source>The learning rate
each step applied</source>
        <translation>La tasa de aprendizaje
que aplicó cada paso</translation>
    </message>
    <message>
        <source>This process's memory
as the run goes</source>
        <translation>La memoria de este proceso
durante la ejecución</translation>
    </message>
    <message>
        <source>Training loss chart</source>
        <translation>Gráfico de la pérdida de entrenamiento</translation>
    </message>
    <message>
        <source>Validation chart</source>
        <translation>Gráfico de validación</translation>
    </message>
    <message>
        <source>Learning rate chart</source>
        <translation>Gráfico de la tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Memory chart</source>
        <translation>Gráfico de memoria</translation>
    </message>
</context>
<context>
    <name>entrena::ui::LrFinderDialog</name>
    <message>
        <source>Find a learning rate</source>
        <translation>Buscar una tasa de aprendizaje</translation>
    </message>
    <message>
        <source>learning rate (log scale)</source>
        <translation>tasa de aprendizaje (escala logarítmica)</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>pérdida de entrenamiento</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>pérdida</translation>
    </message>
    <message>
        <source>smoothed, spikes removed</source>
        <translation>suavizada, sin picos</translation>
    </message>
    <message>
        <source>Use as learning rate</source>
        <translation>Usar como tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Use as one-cycle max_lr</source>
        <translation>Usar como max_lr de one-cycle</translation>
    </message>
    <message>
        <source>Sweeping the learning rate from %1 to %2 over %3 steps…</source>
        <translation>Barriendo la tasa de aprendizaje de %1 a %2 en %3 pasos…</translation>
    </message>
    <message>
        <source>The loss was not finite from the first steps on: start the sweep at a lower rate.</source>
        <translation>La pérdida no fue finita desde los primeros pasos: empiece el barrido con una tasa menor.</translation>
    </message>
    <message>
        <source>Suggested: %1 (valley rule: the middle of the loss's descent from %2 to %3; steepest descent at %4). Chosen: %5 — drag on the chart to change it.</source>
        <translation>Sugerida: %1 (regla del valle: el centro del descenso de la pérdida de %2 a %3; descenso más pronunciado en %4). Elegida: %5 — arrastre sobre la gráfica para cambiarla.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::MainWindow</name>
    <message>
        <source>Run store unavailable: %1</source>
        <translation>Almacén de ejecuciones no disponible: %1</translation>
    </message>
    <message>
        <source>Entrena — %1</source>
        <translation>Entrena — %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;Open configuration…</source>
        <translation>&amp;Abrir configuración…</translation>
    </message>
    <message>
        <source>&amp;Save configuration…</source>
        <translation>&amp;Guardar configuración…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Editar</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Preferencias…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Ay&amp;uda</translation>
    </message>
    <message>
        <source>&amp;About and devices…</source>
        <translation>&amp;Acerca de Entrena y dispositivos…</translation>
    </message>
    <message>
        <source>Ready. Runs are stored in %1</source>
        <translation>Listo. Las ejecuciones se guardan en %1</translation>
    </message>
    <message>
        <source>Cannot start</source>
        <translation>No se puede iniciar</translation>
    </message>
    <message>
        <source>The configuration is not valid: %1</source>
        <translation>La configuración no es válida: %1</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Iniciando…</translation>
    </message>
    <message>
        <source>Run %1 training on %2</source>
        <translation>Ejecución %1 entrenando en %2</translation>
    </message>
    <message>
        <source>Epoch %1 of %2 · loss %3 · %4 samples/s · about %5 s left</source>
        <translation>Época %1 de %2 · pérdida %3 · %4 muestras/s · quedan unos %5 s</translation>
    </message>
    <message>
        <source>Learning rate reduced: %1</source>
        <translation>Tasa de aprendizaje reducida: %1</translation>
    </message>
    <message>
        <source>Finished in %1 s: test accuracy %2%</source>
        <translation>Terminada en %1 s: exactitud de prueba %2 %</translation>
    </message>
    <message>
        <source>Stopped after %1 s; a checkpoint was saved.</source>
        <translation>Detenida tras %1 s; se guardó un punto de control.</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>La ejecución falló.</translation>
    </message>
    <message>
        <source>Training failed</source>
        <translation>El entrenamiento falló</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>La ejecución falló: %1</translation>
    </message>
    <message>
        <source>Open configuration</source>
        <translation>Abrir configuración</translation>
    </message>
    <message>
        <source>Configurations (*.json)</source>
        <translation>Configuraciones (*.json)</translation>
    </message>
    <message>
        <source>Cannot open configuration</source>
        <translation>No se puede abrir la configuración</translation>
    </message>
    <message>
        <source>Save configuration</source>
        <translation>Guardar configuración</translation>
    </message>
    <message>
        <source>Cannot save configuration</source>
        <translation>No se puede guardar la configuración</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>No se pudo escribir %1: %2</translation>
    </message>
    <message>
        <source>Training is running</source>
        <translation>El entrenamiento está en curso</translation>
    </message>
    <message>
        <source>A run is training. Stop it (a checkpoint is saved) and quit, or keep it running?</source>
        <translation>Hay una ejecución entrenando. ¿Detenerla (se guarda un punto de control) y salir, o dejar que siga?</translation>
    </message>
    <message>
        <source>Stop and quit</source>
        <translation>Detener y salir</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>Dejar que siga</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Deteniendo…</translation>
    </message>
    <message>
        <source>The run's configuration is loaded; press Start to run it again.</source>
        <translation>Se cargó la configuración de la ejecución; pulse Iniciar para repetirla.</translation>
    </message>
    <message>
        <source>Cannot load configuration</source>
        <translation>No se puede cargar la configuración</translation>
    </message>
    <message>
        <source>Resuming run %1…</source>
        <translation>Reanudando la ejecución %1…</translation>
    </message>
    <message>
        <source>&amp;Recipes</source>
        <translation>&amp;Recetas</translation>
    </message>
    <message>
        <source>Default: MLP, reduce on plateau, 12 epochs</source>
        <translation>Predeterminada: MLP, reducción en meseta, 12 épocas</translation>
    </message>
    <message>
        <source>Fast CNN: one-cycle, 2 epochs to 91% test accuracy</source>
        <translation>CNN rápida: one-cycle, 2 épocas hasta un 91 % de exactitud en prueba</translation>
    </message>
    <message>
        <source>Export &amp;report of the selected runs…</source>
        <translation>Exportar &amp;informe de las ejecuciones seleccionadas…</translation>
    </message>
    <message>
        <source>Cannot compare runs</source>
        <translation>No se pueden comparar las ejecuciones</translation>
    </message>
    <message>
        <source>Cannot find a learning rate</source>
        <translation>No se puede buscar una tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Learning rate set to %1.</source>
        <translation>Tasa de aprendizaje fijada en %1.</translation>
    </message>
    <message>
        <source>One-cycle schedule with max_lr %1.</source>
        <translation>Planificación one-cycle con max_lr %1.</translation>
    </message>
    <message>
        <source>Divergence at step %1, rolled back: %2</source>
        <translation>Divergencia en el paso %1, se volvió atrás: %2</translation>
    </message>
    <message>
        <source>Out of memory at step %1: %2</source>
        <translation>Sin memoria en el paso %1: %2</translation>
    </message>
    <message>
        <source>Batch %1 on %2: %3 (peak %4 MiB)</source>
        <translation>Lote %1 en %2: %3 (pico de %4 MiB)</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>cabe</translation>
    </message>
    <message>
        <source>too big</source>
        <translation>demasiado grande</translation>
    </message>
    <message>
        <source>Cannot find a batch size</source>
        <translation>No se puede buscar un tamaño de lote</translation>
    </message>
    <message>
        <source>Finding the largest batch that fits…</source>
        <translation>Buscando el lote más grande que cabe…</translation>
    </message>
    <message>
        <source>Cannot write a cluster script</source>
        <translation>No se puede escribir un script de clúster</translation>
    </message>
    <message>
        <source>&amp;Launch on a cluster…</source>
        <translation>&amp;Lanzar en un clúster…</translation>
    </message>
    <message>
        <source>Batch size set to %1.</source>
        <translation>Tamaño de lote fijado en %1.</translation>
    </message>
    <message>
        <source>Largest batch that fits: %1.</source>
        <translation>Lote más grande que cabe: %1.</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>E&amp;jecutar</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Iniciar</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>&amp;Detener</translation>
    </message>
    <message>
        <source>Find &amp;learning rate…</source>
        <translation>Buscar la &amp;tasa de aprendizaje…</translation>
    </message>
    <message>
        <source>Find &amp;batch size…</source>
        <translation>Buscar el tamaño de &amp;lote…</translation>
    </message>
    <message>
        <source>&amp;Compare selected runs</source>
        <translation>&amp;Comparar las ejecuciones seleccionadas</translation>
    </message>
    <message>
        <source>Preview &amp;data…</source>
        <translation>&amp;Vista previa de los datos…</translation>
    </message>
    <message>
        <source>Cannot add to the queue</source>
        <translation>No se puede añadir a la cola</translation>
    </message>
    <message>
        <source>“%1” is queued: it starts when the runs before it have ended.</source>
        <translation>«%1» está en la cola: empieza cuando hayan terminado las ejecuciones anteriores.</translation>
    </message>
    <message>
        <source>S&amp;weep…</source>
        <translation>&amp;Barrido…</translation>
    </message>
    <message>
        <source>Part of the run queue could not be restored: %1</source>
        <translation>No se pudo restaurar parte de la cola de ejecuciones: %1</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Ejecuciones</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Cola</translation>
    </message>
    <message>
        <source>Queue (%1)</source>
        <translation>Cola (%1)</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>Experimentos</translation>
    </message>
    <message>
        <source>It starts when the current run ends.</source>
        <translation>Empieza cuando termine la ejecución en curso.</translation>
    </message>
    <message>
        <source>Cannot sweep</source>
        <translation>No se puede hacer el barrido</translation>
    </message>
    <message>
        <source>Cannot open the experiment</source>
        <translation>No se puede abrir el experimento</translation>
    </message>
    <message>
        <source>Cannot resume the sweep</source>
        <translation>No se puede reanudar el barrido</translation>
    </message>
    <message>
        <source>A sweep is running; stop it or wait for it to end.</source>
        <translation>Hay un barrido en curso; deténgalo o espere a que termine.</translation>
    </message>
    <message>
        <source>Finished in %1 s: best validation accuracy %2% (no test set)</source>
        <translation>Terminada en %1 s: mejor exactitud de validación %2 % (sin conjunto de prueba)</translation>
    </message>
    <message>
        <source>Finished in %1 s.</source>
        <translation>Terminada en %1 s.</translation>
    </message>
    <message>
        <source>The classes will be balanced: the loss is weighted by class.</source>
        <translation>Las clases se equilibrarán: la pérdida se pondera por clase.</translation>
    </message>
    <message>
        <source>Cross-&amp;validate…</source>
        <translation>Validación c&amp;ruzada…</translation>
    </message>
    <message>
        <source>Cannot cross-validate</source>
        <translation>No se puede hacer la validación cruzada</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>&amp;Guía de usuario</translation>
    </message>
    <message>
        <source>Run configuration</source>
        <translation>Configuración de la ejecución</translation>
    </message>
    <message>
        <source>This run store can only be read, so a new run cannot be stored in it. Start Entrena with a store you can write (entrena --db FILE), or import these runs into yours.</source>
        <translation>Este almacén de ejecuciones solo se puede leer, así que no se puede guardar en él una ejecución nueva. Inicie Entrena con un almacén en el que pueda escribir (entrena --db ARCHIVO), o importe estas ejecuciones en el suyo.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::ModelSummaryLine</name>
    <message>
        <source>Choose the TorchScript file.</source>
        <translation>Elija el archivo TorchScript.</translation>
    </message>
    <message>
        <source>Reading the data's shape for the model's size…</source>
        <translation>Leyendo la forma de los datos para el tamaño del modelo…</translation>
    </message>
    <message>
        <source>The model's size is unknown: the data cannot be read (%1).</source>
        <translation>No se conoce el tamaño del modelo: no se pueden leer los datos (%1).</translation>
    </message>
    <message>
        <source>%1×%2×%3 inputs</source>
        <translation>entradas de %1×%2×%3</translation>
    </message>
    <message>
        <source>%1 parameters · %2 MFLOP per sample (forward)</source>
        <translation>%1 parámetros · %2 MFLOP por muestra (hacia delante)</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 parámetros</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>This model cannot be built for %1: %2</source>
        <translation>No se puede construir este modelo para %1: %2</translation>
    </message>
    <message>
        <source>%1 features</source>
        <translation>%1 variables</translation>
    </message>
    <message>
        <source>%1 classes</source>
        <translation>%1 clases</translation>
    </message>
    <message>
        <source>This model needs images; a table of %1 trains an MLP.</source>
        <translation>Este modelo necesita imágenes; una tabla de %1 se entrena con un MLP.</translation>
    </message>
    <message>
        <source>Choose the data's file.</source>
        <translation>Elija el archivo de los datos.</translation>
    </message>
    <message>
        <source>Choose the data's folder.</source>
        <translation>Elija la carpeta de los datos.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::NoticeBanner</name>
    <message>
        <source>⚠ Not learning (epoch %1): %2</source>
        <translation>⚠ No aprende (época %1): %2</translation>
    </message>
    <message>
        <source>⚠ Some data could not be read: %1</source>
        <translation>⚠ No se pudieron leer algunos datos: %1</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Descartar</translation>
    </message>
</context>
<context>
    <name>entrena::ui::ParallelCoordinates</name>
    <message>
        <source>Parallel coordinates of the trials</source>
        <translation>Coordenadas paralelas de las pruebas</translation>
    </message>
    <message>
        <source>One axis per parameter and one for the metric; a line per trial, coloured by its metric. Drag along an axis to keep the trials in that range; click the axis to clear it.</source>
        <translation>Un eje por parámetro y uno para la métrica; una línea por prueba, coloreada según su métrica. Arrastre a lo largo de un eje para quedarse con las pruebas de ese rango; haga clic en el eje para quitarlo.</translation>
    </message>
    <message>
        <source>No trials yet.</source>
        <translation>Aún no hay pruebas.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::PerClassComparison</name>
    <message>
        <source>None of these runs has a per-class evaluation: runs that finish have one.</source>
        <translation>Ninguna de estas ejecuciones tiene evaluación por clase: la tienen las que terminan.</translation>
    </message>
    <message>
        <source>Accuracy of each class (recall, %): of the class's samples, the share the model predicted as it.</source>
        <translation>Exactitud de cada clase (exhaustividad, %): de las muestras de la clase, la parte que el modelo predijo como ella.</translation>
    </message>
    <message>
        <source>Without an evaluation: %1.</source>
        <translation>Sin evaluación: %1.</translation>
    </message>
    <message>
        <source>The best of each row is marked.</source>
        <translation>Se marca lo mejor de cada fila.</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Clase</translation>
    </message>
    <message>
        <source>best</source>
        <translation>mejor</translation>
    </message>
    <message>
        <source>The runs were trained on different classes: only the classes they share (%1) are shown.</source>
        <translation>Las ejecuciones se entrenaron con clases distintas: solo se muestran las clases que comparten (%1).</translation>
    </message>
</context>
<context>
    <name>entrena::ui::QueuePanel</name>
    <message>
        <source>Queued runs</source>
        <translation>Ejecuciones en cola</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>Subir</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>Bajar</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message>
        <source>Run next</source>
        <translation>Ejecutar a continuación</translation>
    </message>
    <message>
        <source>Starts it now when nothing trains; otherwise it starts when the current run ends.</source>
        <translation>La inicia ya si no hay nada entrenando; si no, empieza cuando termine la ejecución en curso.</translation>
    </message>
    <message>
        <source>While a run trains, Start becomes Add to queue, which adds the form's configuration here. When the run ends, the first one here starts (one at a time; Stop pauses the queue). Drag to reorder.</source>
        <translation>Mientras una ejecución entrena, Iniciar pasa a ser Añadir a la cola, que añade aquí la configuración del formulario. Cuando la ejecución termina, empieza la primera de aquí (de una en una; Detener pausa la cola). Arrastre para reordenar.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::Report</name>
    <message>
        <source>Entrena</source>
        <translation>Entrena</translation>
    </message>
    <message>
        <source>LibTorch</source>
        <translation>LibTorch</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Equipo</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Hilos</translation>
    </message>
    <message>
        <source>BLAS</source>
        <translation>BLAS</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>Dispositivos</translation>
    </message>
    <message>
        <source>Process tuning</source>
        <translation>Ajuste del proceso</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>Pérdida de entrenamiento</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>pérdida</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>Exactitud de validación</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>exactitud</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Tasa de aprendizaje</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Memory (MiB, process resident)</source>
        <translation>Memoria (MiB, residente del proceso)</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>Throughput (samples/s)</source>
        <translation>Rendimiento (muestras/s)</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>muestras/s</translation>
    </message>
    <message>
        <source>No runs to report on: give at least one run ID.</source>
        <translation>No hay ejecuciones para el informe: indique al menos un ID de ejecución.</translation>
    </message>
    <message>
        <source>There is no run %1 in %2; `entrena-cli runs --db %2` lists them.</source>
        <translation>No existe la ejecución %1 en %2; `entrena-cli runs --db %2` las lista.</translation>
    </message>
    <message>
        <source>Run report: %1</source>
        <translation>Informe de la ejecución %1</translation>
    </message>
    <message numerus="yes">
        <source>Comparison of %n runs</source>
        <translation><numerusform>Comparación de %n ejecución</numerusform><numerusform>Comparación de %n ejecuciones</numerusform></translation>
    </message>
    <message>
        <source>Best validation accuracy (%)</source>
        <translation>Mejor exactitud de validación (%)</translation>
    </message>
    <message>
        <source>Test accuracy (%)</source>
        <translation>Exactitud en prueba (%)</translation>
    </message>
    <message>
        <source>Final training loss</source>
        <translation>Pérdida de entrenamiento final</translation>
    </message>
    <message>
        <source>Final validation loss</source>
        <translation>Pérdida de validación final</translation>
    </message>
    <message>
        <source>Duration (s)</source>
        <translation>Duración (s)</translation>
    </message>
    <message>
        <source>Peak memory (MiB)</source>
        <translation>Memoria máxima (MiB)</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>época</translation>
    </message>
    <message>
        <source>step</source>
        <translation>paso</translation>
    </message>
    <message>
        <source>--export-report needs --out FILE.pdf or --out FILE.html.</source>
        <translation>--export-report necesita --out ARCHIVO.pdf o --out ARCHIVO.html.</translation>
    </message>
    <message>
        <source>Cannot tell the report's format from “%1”: name the file .pdf or .html.</source>
        <translation>No se reconoce el formato del informe de «%1»: use la extensión .pdf o .html.</translation>
    </message>
    <message>
        <source>“%1” is not a run ID: --runs takes numbers such as 3,5,8.</source>
        <translation>«%1» no es un ID de ejecución: --runs admite números como 3,5,8.</translation>
    </message>
    <message>
        <source>--export-report needs --runs ID[,ID...]; `entrena-cli runs` lists the IDs.</source>
        <translation>--export-report necesita --runs ID[,ID...]; `entrena-cli runs` lista los ID.</translation>
    </message>
    <message>
        <source>There is no run store at %1; give the database with --db FILE.</source>
        <translation>No hay almacén de ejecuciones en %1; indique la base de datos con --db ARCHIVO.</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>Se escribió %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>No se puede escribir %1: %2</translation>
    </message>
    <message>
        <source>Cannot write %1: the PDF could not be started.</source>
        <translation>No se puede escribir %1: no se pudo empezar el PDF.</translation>
    </message>
    <message>
        <source>Generated %1 by Entrena %2</source>
        <translation>Generado el %1 por Entrena %2</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Ejecuciones</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ejecución</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creada</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Etiquetas</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Entorno</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Elemento</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>Configuración</translation>
    </message>
    <message numerus="yes">
        <source>Only the settings that differ between the runs are shown; %n more are the same in all of them.</source>
        <translation><numerusform>Solo se muestran los ajustes que difieren entre las ejecuciones; %n más es igual en todas.</numerusform><numerusform>Solo se muestran los ajustes que difieren entre las ejecuciones; otros %n son iguales en todas.</numerusform></translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>Ajuste</translation>
    </message>
    <message>
        <source>(no differences)</source>
        <translation>(sin diferencias)</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Gráficas</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Resumen</translation>
    </message>
    <message>
        <source>The best value in each row is in bold.</source>
        <translation>El mejor valor de cada fila está en negrita.</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>Métrica</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Eventos</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Paso</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Hora</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Mensaje</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(ninguno)</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notas</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>Error:</translation>
    </message>
    <message>
        <source>true ↓, predicted →</source>
        <translation>verdadera ↓, predicha →</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Clase</translation>
    </message>
    <message>
        <source>Precision (%)</source>
        <translation>Precisión (%)</translation>
    </message>
    <message>
        <source>Recall (%)</source>
        <translation>Exhaustividad (%)</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>Soporte</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Evaluación</translation>
    </message>
    <message>
        <source>Confusion matrices: a row for each true class, a column for each predicted class (numbered as the rows); the shade is the cell's share of its row.</source>
        <translation>Matrices de confusión: una fila por clase verdadera, una columna por clase predicha (numeradas como las filas); el tono es la parte de su fila que tiene la celda.</translation>
    </message>
    <message>
        <source>(no evaluation: the run did not finish)</source>
        <translation>(sin evaluación: la ejecución no terminó)</translation>
    </message>
    <message>
        <source>On the %1 split, %2 samples.</source>
        <translation>En la partición de %1, %2 muestras.</translation>
    </message>
    <message>
        <source>test</source>
        <translation>prueba</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>validación</translation>
    </message>
</context>
<context>
    <name>entrena::ui::RunConfigPanel</name>
    <message>
        <source>Data</source>
        <translation>Datos</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimizador</translation>
    </message>
    <message>
        <source>Learning-rate schedule</source>
        <translation>Programa de la tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Entrenamiento</translation>
    </message>
    <message>
        <source>Run name:</source>
        <translation>Nombre de la ejecución:</translation>
    </message>
    <message>
        <source>Data set:</source>
        <translation>Conjunto de datos:</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>Carpeta:</translation>
    </message>
    <message>
        <source>Batch size:</source>
        <translation>Tamaño de lote:</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>Arquitectura:</translation>
    </message>
    <message>
        <source>Algorithm:</source>
        <translation>Algoritmo:</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>Tasa de aprendizaje:</translation>
    </message>
    <message>
        <source>Weight decay:</source>
        <translation>Decaimiento de pesos:</translation>
    </message>
    <message>
        <source>Schedule:</source>
        <translation>Programa:</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>Épocas:</translation>
    </message>
    <message>
        <source>CPU threads:</source>
        <translation>Hilos de CPU:</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>automático</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Iniciar</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <source>Data set folder</source>
        <translation>Carpeta del conjunto de datos</translation>
    </message>
    <message>
        <source>Training file:</source>
        <translation>Archivo de entrenamiento:</translation>
    </message>
    <message>
        <source>Test file:</source>
        <translation>Archivo de prueba:</translation>
    </message>
    <message>
        <source>Label column:</source>
        <translation>Columna de la etiqueta:</translation>
    </message>
    <message>
        <source>Random crop (pixels):</source>
        <translation>Recorte aleatorio (píxeles):</translation>
    </message>
    <message>
        <source>Random flip:</source>
        <translation>Volteo aleatorio:</translation>
    </message>
    <message>
        <source>Hidden widths:</source>
        <translation>Anchos ocultos:</translation>
    </message>
    <message>
        <source>Channels:</source>
        <translation>Canales:</translation>
    </message>
    <message>
        <source>Blocks per stage:</source>
        <translation>Bloques por etapa:</translation>
    </message>
    <message>
        <source>Dropout:</source>
        <translation>Dropout:</translation>
    </message>
    <message>
        <source>Warm-up (steps):</source>
        <translation>Calentamiento (pasos):</translation>
    </message>
    <message>
        <source>Clip gradient norm:</source>
        <translation>Recortar la norma del gradiente:</translation>
    </message>
    <message>
        <source>Accumulate batches:</source>
        <translation>Acumular lotes:</translation>
    </message>
    <message>
        <source>Label smoothing:</source>
        <translation>Suavizado de etiquetas:</translation>
    </message>
    <message>
        <source>Early stop after (epochs):</source>
        <translation>Parada temprana tras (épocas):</translation>
    </message>
    <message>
        <source>e.g. 256, 128</source>
        <translation>p. ej. 256, 128</translation>
    </message>
    <message>
        <source>e.g. 32, 64</source>
        <translation>p. ej. 32, 64</translation>
    </message>
    <message>
        <source>off</source>
        <translation>desactivado</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
    <message>
        <source>left–right, half the images</source>
        <translation>izquierda–derecha, la mitad de las imágenes</translation>
    </message>
    <message>
        <source>Choose the data set's folder (images) or training file (CSV)</source>
        <translation>Elija la carpeta del conjunto de datos (imágenes) o el archivo de entrenamiento (CSV)</translation>
    </message>
    <message>
        <source>Training data</source>
        <translation>Datos de entrenamiento</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Archivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>Test data</source>
        <translation>Datos de prueba</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>Precisión:</translation>
    </message>
    <message>
        <source>TorchScript model</source>
        <translation>Modelo TorchScript</translation>
    </message>
    <message>
        <source>TorchScript modules (*.pt *.pth *.ts);;All files (*)</source>
        <translation>Módulos TorchScript (*.pt *.pth *.ts);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>TorchScript file:</source>
        <translation>Archivo TorchScript:</translation>
    </message>
    <message>
        <source>saved with torch.jit.script(model).save(path)</source>
        <translation>guardado con torch.jit.script(model).save(ruta)</translation>
    </message>
    <message>
        <source>Find LR…</source>
        <translation>Buscar tasa…</translation>
    </message>
    <message>
        <source>Learning-rate range test: sweep the rate on a copy of the model and suggest one.</source>
        <translation>Prueba de rango de la tasa de aprendizaje: barre la tasa sobre una copia del modelo y sugiere una.</translation>
    </message>
    <message>
        <source>Stop search</source>
        <translation>Detener la búsqueda</translation>
    </message>
    <message>
        <source>Find batch size…</source>
        <translation>Buscar tamaño de lote…</translation>
    </message>
    <message>
        <source>The largest batch that fits in memory (train.memory_budget_mb when set): doubling, then binary search, each trial a few real steps of a fresh model.</source>
        <translation>El lote más grande que cabe en memoria (train.memory_budget_mb si está fijado): duplicando y luego por búsqueda binaria, cada prueba con unos pocos pasos reales de un modelo nuevo.</translation>
    </message>
    <message>
        <source>Devices:</source>
        <translation>Dispositivos:</translation>
    </message>
    <message>
        <source>Fix the form first: %1</source>
        <translation>Corrija antes el formulario: %1</translation>
    </message>
    <message>
        <source>as stored; e.g. 32 or 64, 48</source>
        <translation>como están; p. ej. 32 o 64, 48</translation>
    </message>
    <message>
        <source>Preview data…</source>
        <translation>Vista previa de los datos…</translation>
    </message>
    <message>
        <source>Each class with its number of samples and a few of its pictures</source>
        <translation>Cada clase con su número de muestras y algunas de sus imágenes</translation>
    </message>
    <message>
        <source>Add to queue</source>
        <translation>Añadir a la cola</translation>
    </message>
    <message>
        <source>Adds this configuration to the queue: it starts when the runs before it have ended.</source>
        <translation>Añade esta configuración a la cola: empieza cuando hayan terminado las ejecuciones anteriores.</translation>
    </message>
    <message>
        <source>The data cannot be read: %1</source>
        <translation>No se pueden leer los datos: %1</translation>
    </message>
    <message>
        <source>Trains this configuration; the charts follow it as it goes.</source>
        <translation>Entrena esta configuración; los gráficos la siguen mientras avanza.</translation>
    </message>
    <message>
        <source>Stops the run after its current step; it can be resumed from the runs list.</source>
        <translation>Detiene la ejecución tras su paso actual; se puede reanudar desde la lista de ejecuciones.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::RunDetailsDialog</name>
    <message>
        <source>Run %1</source>
        <translation>Ejecución %1</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Nombre:</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Estado:</translation>
    </message>
    <message>
        <source>Started:</source>
        <translation>Inicio:</translation>
    </message>
    <message>
        <source>Ended:</source>
        <translation>Fin:</translation>
    </message>
    <message>
        <source>Test accuracy:</source>
        <translation>Exactitud de prueba:</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>Error:</translation>
    </message>
    <message>
        <source>comma-separated, e.g. baseline, cnn</source>
        <translation>separadas por comas, p. ej. referencia, cnn</translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation>Etiquetas:</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>Notas:</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Resumen</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>Configuración</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Paso</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Hora</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Mensaje</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Eventos</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Mejor</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Archivo</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sí</translation>
    </message>
    <message>
        <source>%1 (missing: deleted or moved)</source>
        <translation>%1 (falta: borrado o movido)</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Puntos de control</translation>
    </message>
    <message>
        <source>Export weights…</source>
        <translation>Exportar pesos…</translation>
    </message>
    <message>
        <source>Best checkpoint…</source>
        <translation>Mejor punto de control…</translation>
    </message>
    <message>
        <source>Last checkpoint…</source>
        <translation>Último punto de control…</translation>
    </message>
    <message>
        <source>Export weights</source>
        <translation>Exportar pesos</translation>
    </message>
    <message>
        <source>PyTorch state dict (*.pt *.pth)</source>
        <translation>state dict de PyTorch (*.pt *.pth)</translation>
    </message>
    <message>
        <source>safetensors (*.safetensors)</source>
        <translation>safetensors (*.safetensors)</translation>
    </message>
    <message>
        <source>Exporting and checking the weights on the test set…</source>
        <translation>Exportando y comprobando los pesos con el conjunto de prueba…</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %1 (%n tensor(s), from %2) and %3.</source>
        <translation><numerusform>Se escribió %1 (%n tensor, de %2) y %3.</numerusform><numerusform>Se escribió %1 (%n tensores, de %2) y %3.</numerusform></translation>
    </message>
    <message>
        <source>Test accuracy of these weights: %1%.</source>
        <translation>Exactitud en prueba de estos pesos: %1 %.</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Gráficas</translation>
    </message>
    <message>
        <source>Trained:</source>
        <translation>Entrenado:</translation>
    </message>
    <message>
        <source>%1 on %2, %3, %4</source>
        <translation>%1 con %2, %3, %4</translation>
    </message>
    <message>
        <source>Best validation accuracy:</source>
        <translation>Mejor exactitud de validación:</translation>
    </message>
    <message>
        <source>Final training loss:</source>
        <translation>Pérdida de entrenamiento final:</translation>
    </message>
    <message>
        <source>Duration:</source>
        <translation>Duración:</translation>
    </message>
    <message>
        <source>Throughput:</source>
        <translation>Rendimiento:</translation>
    </message>
    <message>
        <source> samples/s</source>
        <translation> muestras/s</translation>
    </message>
    <message>
        <source>Peak memory:</source>
        <translation>Memoria máxima:</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Evaluación</translation>
    </message>
    <message>
        <source>Try it</source>
        <translation>Probar</translation>
    </message>
    <message>
        <source>ONNX, for other runtimes (*.onnx)</source>
        <translation>ONNX, para otros entornos de ejecución (*.onnx)</translation>
    </message>
    <message>
        <source>%1 “%2”</source>
        <translation>%1 «%2»</translation>
    </message>
    <message>
        <source>This run kept no checkpoint.</source>
        <translation>Esta ejecución no guardó ningún punto de control.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::RunQueue</name>
    <message>
        <source>1 epoch</source>
        <translation>1 época</translation>
    </message>
    <message>
        <source>%1 epochs</source>
        <translation>%1 épocas</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 lr %4 · batch %5 · %6</source>
        <translation>%1 · %2 · %3 lr %4 · lote %5 · %6</translation>
    </message>
</context>
<context>
    <name>entrena::ui::RunsPanel</name>
    <message>
        <source>Filter runs by any column…</source>
        <translation>Filtrar ejecuciones por cualquier columna…</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Todos los estados</translation>
    </message>
    <message>
        <source>Details…</source>
        <translation>Detalles…</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>Repetir</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reanudar</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>Renombrar…</translation>
    </message>
    <message>
        <source>Rename run</source>
        <translation>Renombrar ejecución</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Nombre:</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archivar</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Borrar…</translation>
    </message>
    <message>
        <source>Delete run</source>
        <translation>Borrar ejecución</translation>
    </message>
    <message>
        <source>Delete run %1 “%2” with its metrics and checkpoint files? This cannot be undone.</source>
        <translation>¿Borrar la ejecución %1 «%2» con sus métricas y puntos de control? No se puede deshacer.</translation>
    </message>
    <message numerus="yes">
        <source>The run was deleted, but %n checkpoint file(s) could not be removed.</source>
        <translation><numerusform>Se borró la ejecución, pero no se pudo eliminar %n archivo de punto de control.</numerusform><numerusform>Se borró la ejecución, pero no se pudieron eliminar %n archivos de puntos de control.</numerusform></translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>Exportar informe</translation>
    </message>
    <message>
        <source>Select one run, or several to compare (Ctrl+click), in the runs list first.</source>
        <translation>Seleccione antes una ejecución, o varias para compararlas (Ctrl+clic), en la lista de ejecuciones.</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>HTML, self-contained (*.html)</source>
        <translation>HTML autocontenido (*.html)</translation>
    </message>
    <message>
        <source>The run store is not open.</source>
        <translation>El almacén de ejecuciones no está abierto.</translation>
    </message>
    <message>
        <source>Export comparison report…</source>
        <translation>Exportar informe comparativo…</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Exportar informe…</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparar</translation>
    </message>
    <message>
        <source>Select two or more runs (Ctrl+click) to compare them side by side.</source>
        <translation>Seleccione dos o más ejecuciones (Ctrl+clic) para compararlas lado a lado.</translation>
    </message>
    <message numerus="yes">
        <source>Compare %n runs</source>
        <translation><numerusform>Comparar %n ejecución</numerusform><numerusform>Comparar %n ejecuciones</numerusform></translation>
    </message>
    <message>
        <source>All tags</source>
        <translation>Todas las etiquetas</translation>
    </message>
    <message>
        <source>Hyper-parameters</source>
        <translation>Hiperparámetros</translation>
    </message>
    <message>
        <source>Clear baseline</source>
        <translation>Quitar la referencia</translation>
    </message>
    <message>
        <source>Mark as baseline for %1</source>
        <translation>Marcar como referencia de %1</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>Referencia</translation>
    </message>
    <message>
        <source>Filter runs</source>
        <translation>Filtrar las ejecuciones</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Ejecuciones</translation>
    </message>
    <message>
        <source>Open experiment %1 (trial %2)</source>
        <translation>Abrir el experimento %1 (prueba %2)</translation>
    </message>
    <message>
        <source>Delete checkpoints (keep metrics)…</source>
        <translation>Borrar los puntos de control (conservar las métricas)…</translation>
    </message>
    <message>
        <source>Try the model…</source>
        <translation>Probar el modelo…</translation>
    </message>
    <message>
        <source>it is on read-only media</source>
        <translation>está en un medio de solo lectura</translation>
    </message>
    <message>
        <source>you may not write to it or to its folder</source>
        <translation>no tiene permiso para escribir en él ni en su carpeta</translation>
    </message>
    <message>
        <source>the disk holding it is full</source>
        <translation>el disco que lo contiene está lleno</translation>
    </message>
    <message>
        <source>it cannot be written here</source>
        <translation>aquí no se puede escribir en él</translation>
    </message>
    <message>
        <source>This run store can only be read: %1. Its runs can be viewed, compared, exported and tried, not changed, and new runs cannot be stored in it. To train, free space or start Entrena with a writable store (entrena --db FILE); to keep these runs, import them into yours: entrena-cli import FILE.</source>
        <translation>Este almacén de ejecuciones solo se puede leer: %1. Sus ejecuciones se pueden ver, comparar, exportar y probar, no cambiar, y no se pueden guardar ejecuciones nuevas en él. Para entrenar, libere espacio o inicie Entrena con un almacén en el que se pueda escribir (entrena --db ARCHIVO); para conservar estas ejecuciones, impórtelas en el suyo: entrena-cli import ARCHIVO.</translation>
    </message>
    <message>
        <source>Read-only run store</source>
        <translation>Almacén de ejecuciones de solo lectura</translation>
    </message>
</context>
<context>
    <name>entrena::ui::SchedulePreview</name>
    <message>
        <source>Learning rate schedule preview</source>
        <translation>Vista previa del programa de la tasa de aprendizaje</translation>
    </message>
    <message>
        <source>The learning rate (up) that each step of the planned run (across) will apply</source>
        <translation>La tasa de aprendizaje (vertical) que aplicará cada paso de la ejecución prevista (horizontal)</translation>
    </message>
</context>
<context>
    <name>entrena::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Preferencias</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>Idioma del sistema</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Idioma:</translation>
    </message>
    <message>
        <source> pp</source>
        <translation> pp</translation>
    </message>
    <message>
        <source>A run faster than its data set's baseline is flagged when its final accuracy is lower by more than this many percentage points.</source>
        <translation>Una ejecución más rápida que la referencia de su conjunto de datos se señala cuando su exactitud final es menor en más de estos puntos porcentuales.</translation>
    </message>
    <message>
        <source>Baseline tolerance:</source>
        <translation>Tolerancia de la referencia:</translation>
    </message>
    <message>
        <source>As the desktop</source>
        <translation>Como el escritorio</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Clara</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Oscura</translation>
    </message>
    <message>
        <source>Appearance:</source>
        <translation>Apariencia:</translation>
    </message>
</context>
<context>
    <name>entrena::ui::StepTimeChart</name>
    <message>
        <source>Time per step (ms)</source>
        <translation>Tiempo por paso (ms)</translation>
    </message>
    <message>
        <source>waiting for data</source>
        <translation>esperando datos</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>pasada hacia delante</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>pasada hacia atrás</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>optimizador</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>comunicación</translation>
    </message>
    <message>
        <source>logging</source>
        <translation>registro</translation>
    </message>
    <message>
        <source>step</source>
        <translation>paso</translation>
    </message>
    <message>
        <source>Waiting for data %1% of each step: raise data.workers, or lower the augmentation's cost.</source>
        <translation>Esperando datos el %1% de cada paso: aumente data.workers o abarate el aumento de datos.</translation>
    </message>
    <message>
        <source>Communication %1% of each step: raise the batch per device, so that each all-reduce carries more work.</source>
        <translation>Comunicación el %1% de cada paso: aumente el lote por dispositivo, para que cada all-reduce lleve más trabajo.</translation>
    </message>
    <message>
        <source>Reporting %1% of each step: raise train.log_every.</source>
        <translation>Informes el %1% de cada paso: aumente train.log_every.</translation>
    </message>
    <message>
        <source>The optimizer's update %1% of each step: a larger batch spreads its cost over more samples.</source>
        <translation>La actualización del optimizador el %1% de cada paso: un lote mayor reparte su coste entre más muestras.</translation>
    </message>
    <message>
        <source>Compute-bound: forward and backward %1% of each step.</source>
        <translation>Limitado por el cálculo: las pasadas hacia delante y hacia atrás el %1% de cada paso.</translation>
    </message>
    <message>
        <source>Model-FLOP utilisation %1%.</source>
        <translation>Utilización de FLOP del modelo: %1%.</translation>
    </message>
    <message>
        <source>Time per step chart</source>
        <translation>Gráfico del tiempo por paso</translation>
    </message>
    <message>
        <source>Where each step's time goes,
once a run starts</source>
        <translation>En qué se va el tiempo
de cada paso, al empezar
una ejecución</translation>
    </message>
</context>
<context>
    <name>entrena::ui::SweepDialog</name>
    <message>
        <source>Experiment %1 %2: %3 trials (%4 pruned, %5 failed).</source>
        <translation>Experimento %1 %2: %3 pruebas (%4 podadas, %5 fallidas).</translation>
    </message>
    <message>
        <source>Best: run %1, %2.</source>
        <translation>Mejor: ejecución %1, %2.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Detenido.</translation>
    </message>
    <message>
        <source>The sweep failed.</source>
        <translation>El barrido falló.</translation>
    </message>
    <message>
        <source>The sweep failed: %1</source>
        <translation>El barrido falló: %1</translation>
    </message>
    <message>
        <source>Fix the sweep first: %1</source>
        <translation>Corrija antes el barrido: %1</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Iniciando…</translation>
    </message>
    <message>
        <source>Stopping: each trial ends its step and saves a checkpoint…</source>
        <translation>Deteniendo: cada prueba termina su paso y guarda un punto de control…</translation>
    </message>
    <message>
        <source>Stop sweep</source>
        <translation>Detener el barrido</translation>
    </message>
    <message>
        <source>Start sweep</source>
        <translation>Iniciar el barrido</translation>
    </message>
    <message>
        <source>Experiment %1: %2, %3 trials.</source>
        <translation>Experimento %1: %2, %3 pruebas.</translation>
    </message>
    <message>
        <source>Trial %1 (run %2) started: %3</source>
        <translation>Prueba %1 (ejecución %2) iniciada: %3</translation>
    </message>
    <message>
        <source>Trial %1 (run %2) %3 after one epoch</source>
        <translation>Prueba %1 (ejecución %2): %3 tras una época</translation>
    </message>
    <message>
        <source>Trial %1 (run %2) %3 after %4 epochs</source>
        <translation>Prueba %1 (ejecución %2): %3 tras %4 épocas</translation>
    </message>
    <message>
        <source>Trial %1 (run %2) copied run %3 at step %4: %5</source>
        <translation>Prueba %1 (ejecución %2) copió la ejecución %3 en el paso %4: %5</translation>
    </message>
    <message>
        <source>Trial %1: %2</source>
        <translation>Prueba %1: %2</translation>
    </message>
    <message>
        <source>%1 of %2 trials ended.</source>
        <translation>%1 de %2 pruebas terminadas.</translation>
    </message>
    <message>
        <source>A sweep is running</source>
        <translation>Hay un barrido en curso</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Barrido</translation>
    </message>
    <message>
        <source>Each trial is a run of the form's configuration “%1” with the values below, trained by entrena-cli and kept in the store like any run.</source>
        <translation>Cada prueba es una ejecución de la configuración del formulario «%1» con los valores de abajo, entrenada por entrena-cli y guardada en el almacén como cualquier ejecución.</translation>
    </message>
    <message>
        <source>Search space</source>
        <translation>Espacio de búsqueda</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Método</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>Método:</translation>
    </message>
    <message>
        <source>Trials:</source>
        <translation>Pruebas:</translation>
    </message>
    <message>
        <source>At once:</source>
        <translation>A la vez:</translation>
    </message>
    <message>
        <source>Metric:</source>
        <translation>Métrica:</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Nombre:</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>Semilla:</translation>
    </message>
    <message>
        <source>Trials trained at once; each gets an equal share of the CPU cores (%1).</source>
        <translation>Pruebas entrenadas a la vez; cada una recibe una parte igual de los núcleos de la CPU (%1).</translation>
    </message>
    <message>
        <source>Open experiment</source>
        <translation>Abrir el experimento</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Cerrar</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Progreso</translation>
    </message>
    <message>
        <source>Sweep log</source>
        <translation>Registro del barrido</translation>
    </message>
    <message>
        <source>Stopped. The trials saved checkpoints; Resume sweep continues experiment %1 (as `entrena-cli sweep --resume %1` does).</source>
        <translation>Detenido. Las pruebas guardaron puntos de control; Reanudar barrido continúa el experimento %1 (como `entrena-cli sweep --resume %1`).</translation>
    </message>
    <message>
        <source>Cannot resume experiment %1: %2</source>
        <translation>No se puede reanudar el experimento %1: %2</translation>
    </message>
    <message>
        <source>Resuming experiment %1: %2 of its trials had ended.</source>
        <translation>Reanudando el experimento %1: %2 de sus pruebas habían terminado.</translation>
    </message>
    <message>
        <source>Resuming…</source>
        <translation>Reanudando…</translation>
    </message>
    <message>
        <source>Stop the sweep and quit? Its trials save checkpoints; Resume sweep in its experiment's window (or `entrena-cli sweep --resume %1`) continues it.</source>
        <translation>¿Detener el barrido y salir? Sus pruebas guardan puntos de control; Reanudar barrido en la ventana de su experimento (o `entrena-cli sweep --resume %1`) lo continúa.</translation>
    </message>
    <message>
        <source>Resume sweep</source>
        <translation>Reanudar barrido</translation>
    </message>
    <message>
        <source>Cross-validate:</source>
        <translation>Validación cruzada:</translation>
    </message>
    <message>
        <source>No: one run a trial</source>
        <translation>No: una ejecución por prueba</translation>
    </message>
    <message numerus="yes">
        <source>Each trial on %n folds</source>
        <translation><numerusform>Cada prueba en %n pliegue</numerusform><numerusform>Cada prueba en %n pliegues</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Best: the trial whose first fold is run %1, %2 over its %n folds.</source>
        <translation><numerusform>Mejor: la prueba cuyo primer pliegue es la ejecución %1, %2 sobre su %n pliegue.</numerusform><numerusform>Mejor: la prueba cuyo primer pliegue es la ejecución %1, %2 sobre sus %n pliegues.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%1, the mean of its %n folds</source>
        <translation><numerusform>%1, la media de su %n pliegue</numerusform><numerusform>%1, la media de sus %n pliegues</numerusform></translation>
    </message>
    <message>
        <source>Each trial trains once per fold and is valued by the folds' mean (ASHA prunes on it too): steadier on a small data set, and that many times the work.</source>
        <translation>Cada prueba se entrena una vez por pliegue y se valora por la media de los pliegues (ASHA también poda según ella): más estable en un conjunto de datos pequeño, y tantas veces más trabajo.</translation>
    </message>
    <message>
        <source>%1 %2 %</source>
        <translation>%1 %2 %</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
</context>
<context>
    <name>entrena::ui::SweepRunner</name>
    <message>
        <source>Sweep</source>
        <translation>Barrido</translation>
    </message>
</context>
<context>
    <name>entrena::ui::SweepSpaceEditor</name>
    <message>
        <source>e.g. 64, 128, 256</source>
        <translation>p. ej. 64, 128, 256</translation>
    </message>
    <message>
        <source>Add a parameter to search.</source>
        <translation>Añada un parámetro que buscar.</translation>
    </message>
    <message>
        <source>%1 is in the space twice; remove one of its rows.</source>
        <translation>%1 está dos veces en el espacio; quite una de sus filas.</translation>
    </message>
    <message>
        <source>%1: the values must be JSON values separated by commas, e.g. 64, 128 or [256, 128], [512, 256].</source>
        <translation>%1: los valores deben ser valores JSON separados por comas, p. ej. 64, 128 o [256, 128], [512, 256].</translation>
    </message>
    <message>
        <source>%1: the range's start “%2” is not a number.</source>
        <translation>%1: el inicio del rango «%2» no es un número.</translation>
    </message>
    <message>
        <source>%1: the range's end “%2” is not a number.</source>
        <translation>%1: el final del rango «%2» no es un número.</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>Parámetro</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>Distribución</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Desde</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Hasta</translation>
    </message>
    <message>
        <source>Values (for a choice)</source>
        <translation>Valores (para una elección)</translation>
    </message>
    <message>
        <source>Parameters to search</source>
        <translation>Parámetros que buscar</translation>
    </message>
    <message>
        <source>Add parameter</source>
        <translation>Añadir parámetro</translation>
    </message>
    <message>
        <source>uniform</source>
        <translation>uniforme</translation>
    </message>
    <message>
        <source>log-uniform</source>
        <translation>log-uniforme</translation>
    </message>
    <message>
        <source>whole numbers</source>
        <translation>números enteros</translation>
    </message>
    <message>
        <source>choice</source>
        <translation>elección</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>Valores</translation>
    </message>
    <message>
        <source>Remove this parameter</source>
        <translation>Quitar este parámetro</translation>
    </message>
</context>
<context>
    <name>entrena::ui::TryModelTab</name>
    <message>
        <source>Checkpoint:</source>
        <translation>Punto de control:</translation>
    </message>
    <message>
        <source>Choose images…</source>
        <translation>Elegir imágenes…</translation>
    </message>
    <message>
        <source>…or drop PNG or JPEG files (or folders) here.</source>
        <translation>…o suelte aquí archivos PNG o JPEG (o carpetas).</translation>
    </message>
    <message>
        <source>Classify</source>
        <translation>Clasificar</translation>
    </message>
    <message>
        <source>Best by validation (epoch %1, step %2)</source>
        <translation>El mejor en validación (época %1, paso %2)</translation>
    </message>
    <message>
        <source>Latest (epoch %1, step %2)</source>
        <translation>El último (época %1, paso %2)</translation>
    </message>
    <message>
        <source>This run kept no checkpoint, so there is no model to try.</source>
        <translation>Esta ejecución no guardó ningún punto de control, así que no hay modelo que probar.</translation>
    </message>
    <message>
        <source>The image</source>
        <translation>La imagen</translation>
    </message>
    <message>
        <source>Loading the model…</source>
        <translation>Cargando el modelo…</translation>
    </message>
    <message>
        <source>Load the model</source>
        <translation>Cargar el modelo</translation>
    </message>
    <message numerus="yes">
        <source>Type or paste a row of %n value(s), in the training file's column order.</source>
        <translation><numerusform>Escriba o pegue una fila de %n valor, en el orden de columnas del archivo de entrenamiento.</numerusform><numerusform>Escriba o pegue una fila de %n valores, en el orden de columnas del archivo de entrenamiento.</numerusform></translation>
    </message>
    <message>
        <source>Type or paste a row of values for: %1.</source>
        <translation>Escriba o pegue una fila de valores para: %1.</translation>
    </message>
    <message>
        <source>Values separated by commas, semicolons or tabs</source>
        <translation>Valores separados por comas, puntos y coma o tabuladores</translation>
    </message>
    <message>
        <source>The model classifies a row of the table it was trained on, scaled as in training.</source>
        <translation>El modelo clasifica una fila de la tabla con la que se entrenó, escalada como en el entrenamiento.</translation>
    </message>
    <message>
        <source>Each image is resized to %1 × %2, %3, and normalised as in training.</source>
        <translation>Cada imagen se redimensiona a %1 × %2, %3, y se normaliza como en el entrenamiento.</translation>
    </message>
    <message>
        <source>in grey</source>
        <translation>en gris</translation>
    </message>
    <message>
        <source>in colour</source>
        <translation>en color</translation>
    </message>
    <message>
        <source>The model could not be loaded: %1</source>
        <translation>No se pudo cargar el modelo: %1</translation>
    </message>
    <message>
        <source>Choose images</source>
        <translation>Elegir imágenes</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.PNG *.JPG *.JPEG)</source>
        <translation>Imágenes (*.png *.jpg *.jpeg *.PNG *.JPG *.JPEG)</translation>
    </message>
    <message>
        <source>Classifying…</source>
        <translation>Clasificando…</translation>
    </message>
    <message>
        <source>Try the model</source>
        <translation>Probar el modelo</translation>
    </message>
    <message>
        <source>%1 was not classified: %2</source>
        <translation>%1 no se clasificó: %2</translation>
    </message>
    <message>
        <source>As the model sees it (%1 × %2)</source>
        <translation>Como la ve el modelo (%1 × %2)</translation>
    </message>
    <message>
        <source>This row cannot be classified: %1</source>
        <translation>Esta fila no se puede clasificar: %1</translation>
    </message>
    <message>
        <source>This run's checkpoints were deleted on %1 (%2 freed), so there is no model to try or export. Its charts, metrics, events and evaluation stay.</source>
        <translation>Los puntos de control de esta ejecución se borraron el %1 (%2 liberados), así que no hay modelo que probar ni exportar. Sus gráficos, métricas, eventos y evaluación se conservan.</translation>
    </message>
</context>
<context>
    <name>entrena::ui::UserGuideDialog</name>
    <message>
        <source>The user guide is not installed here. It is README.md and the docs/ folder of Entrena's sources, and /usr/share/doc/entrena in its Debian package.</source>
        <translation>La guía de usuario no está instalada aquí. Es README.md y la carpeta docs/ de las fuentes de Entrena, y /usr/share/doc/entrena en su paquete Debian.</translation>
    </message>
    <message>
        <source>Entrena user guide</source>
        <translation>Guía de usuario de Entrena</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>Contenido</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <source>Entrena: what you are looking at</source>
        <translation>Entrena: lo que está viendo</translation>
    </message>
    <message>
        <source>Every setting of a run</source>
        <translation>Cada ajuste de una ejecución</translation>
    </message>
    <message>
        <source>Sweeps, queues and cross-validation</source>
        <translation>Barridos, colas y validación cruzada</translation>
    </message>
    <message>
        <source>Evaluation: what the model gets wrong</source>
        <translation>Evaluación: en qué se equivoca el modelo</translation>
    </message>
    <message>
        <source>Using a trained model</source>
        <translation>Usar un modelo entrenado</translation>
    </message>
    <message>
        <source>Exporting weights</source>
        <translation>Exportar los pesos</translation>
    </message>
    <message>
        <source>The run store and its files</source>
        <translation>El almacén de ejecuciones y sus archivos</translation>
    </message>
    <message>
        <source>Several devices and machines</source>
        <translation>Varios dispositivos y máquinas</translation>
    </message>
    <message>
        <source>The command line (entrena-cli)</source>
        <translation>La línea de órdenes (entrena-cli)</translation>
    </message>
</context>
<context>
    <name>entrena::ui::WindowLayout</name>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>&amp;Configuration</source>
        <translation>&amp;Configuración</translation>
    </message>
    <message>
        <source>&amp;Runs list</source>
        <translation>&amp;Lista de ejecuciones</translation>
    </message>
    <message>
        <source>&amp;Full screen</source>
        <translation>&amp;Pantalla completa</translation>
    </message>
    <message>
        <source>Reset &amp;layout</source>
        <translation>&amp;Restablecer la disposición</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Entrena: train neural networks faster.</source>
        <translation>Entrena: entrene redes neuronales más rápido.</translation>
    </message>
    <message>
        <source>The run store (SQLite file).</source>
        <translation>El almacén de ejecuciones (archivo SQLite).</translation>
    </message>
    <message>
        <source>A run configuration to load (JSON).</source>
        <translation>Una configuración de ejecución que cargar (JSON).</translation>
    </message>
    <message>
        <source>Entrena</source>
        <translation>Entrena</translation>
    </message>
    <message>
        <source>The configuration cannot be used: %1
The defaults are loaded instead.</source>
        <translation>No se puede usar la configuración: %1
Se cargan los valores predeterminados.</translation>
    </message>
    <message>
        <source>Write a report of --runs to --out (.pdf or .html) and exit; no display needed.</source>
        <translation>Escribe un informe de --runs en --out (.pdf o .html) y termina; no necesita pantalla.</translation>
    </message>
    <message>
        <source>Run IDs for --export-report, comma-separated.</source>
        <translation>ID de ejecución para --export-report, separados por comas.</translation>
    </message>
    <message>
        <source>The report file for --export-report.</source>
        <translation>El archivo del informe para --export-report.</translation>
    </message>
    <message>
        <source>Something went wrong</source>
        <translation>Algo salió mal</translation>
    </message>
    <message>
        <source>%1

Entrena carried on. If the run store is named, check the disk it is on; what was saved so far is kept.</source>
        <translation>%1

Entrena siguió funcionando. Si se nombra el almacén de ejecuciones, revise el disco en que está; lo guardado hasta ahora se conserva.</translation>
    </message>
</context>
</TS>