# askrff's main job on an embedded default: sample random Fourier feature maps
# for several kernels (Gaussian, Laplace, Matern), one asymmetric and one indefinite, and random periodic
# features with one side quantized to one bit, on a real data set,
# tabulate the
# relative Frobenius error
# of the approximate kernel matrix against the number of frequencies, and save
# the picture as askrff-demo.png in the working directory.
library(askrff)

# The Fiji earthquakes shipped with R: 1000 events, 5 numeric columns, scaled
# to [0, 1] as in the papers' experiments.
x <- as.matrix(datasets::quakes)
x <- sweep(sweep(x, 2, apply(x, 2, min)), 2, apply(x, 2, function(v) diff(range(v))), "/")
d <- ncol(x)
# The median distance between points, the usual bandwidth of the Gaussian family.
sigma <- median_bandwidth(x, seed = 1)
cat(sprintf("median_bandwidth(x) = %.3f, the sigma of the Gaussian kernels below\n\n", sigma))

# The Shift-Gaussian kernel is asymmetric, k(x, y) != k(y, x): its kernel
# matrix is estimated by different left and right feature maps, from the three
# positive parts of its complex spectral measure ("jordan") or from |mu| with
# a phase ("phase").
shift <- shift_gaussian_kernel(sigma, shift = 0.2)
# The Delta-Gaussian kernel is indefinite: its spectral measure is signed, and
# the map samples its positive and negative parts (GRFF), in orthogonal
# blocks per part (GORF).
delta <- delta_gaussian_kernel(weights = c(1, -1), sigmas = c(sigma, 10 * sigma))
settings <- list(
  "Gaussian, i.i.d."          = list(kernel = gaussian_kernel(sigma), method = "iid"),
  "Gaussian, orthogonal"      = list(kernel = gaussian_kernel(sigma), method = "orthogonal"),
  "Laplace, i.i.d."           = list(kernel = laplace_kernel(1), method = "iid"),
  # The Matern kernel of smoothness 3/2, the spatial statistician's default:
  # Student t frequencies, here in orthogonal blocks.
  "Matern 3/2, orthogonal"    = list(kernel = matern_kernel(sigma, nu = 1.5), method = "orthogonal"),
  "Shift-Gaussian, jordan"    = list(kernel = shift, method = "orthogonal", decomposition = "jordan"),
  "Shift-Gaussian, phase"     = list(kernel = shift, method = "orthogonal", decomposition = "phase"),
  "Delta-Gaussian, GRFF"      = list(kernel = delta, method = "iid"),
  "Delta-Gaussian, GORF"      = list(kernel = delta, method = "orthogonal"),
  # Random periodic features: x through the one-bit square wave, y through the
  # cosine; (pi/2) <z_q(x), z_cos(y)> is unbiased for k. With both sides
  # quantized the product estimates a distorted kernel, so its error stalls.
  "Gaussian, 1-bit x cos"     = list(kernel = gaussian_kernel(sigma), periodic = c("square", "cos")),
  "Gaussian, 1-bit x 1-bit"   = list(kernel = gaussian_kernel(sigma), periodic = c("square", "square"))
)
n_features <- 2^(2:10)
replicates <- 5

exact <- lapply(settings, function(s) kernel_matrix(s$kernel, x))
errors <- vapply(names(settings), function(name) {
  s <- settings[[name]]
  vapply(n_features, function(m) {
    mean(vapply(seq_len(replicates), function(r) {
      if (!is.null(s$periodic)) {
        map <- rpf_map(s$kernel, d, m, seed = r)
        return(relative_error(exact[[name]], rpf_kernel_matrix(map, x, x, s$periodic[1], s$periodic[2])))
      }
      settings <- if (is.null(s$decomposition)) list() else list(decomposition = s$decomposition)
      map <- do.call(rff_map, c(list(s$kernel, d, m, s$method), settings, list(seed = r)))
      relative_error(exact[[name]], rff_kernel_matrix(map, x))
    }, numeric(1)))
  }, numeric(1))
}, numeric(length(n_features)))

cat("Relative Frobenius error of the approximate kernel matrix on datasets::quakes\n")
cat(sprintf("(n = %d points, d = %d, mean of %d maps per cell)\n\n", nrow(x), d, replicates))
cat("rows: kernel and sampler; columns: frequencies of the map, shared among the positive parts by mass\n")
cat("(each gives a cosine and a sine feature, but one feature per side for the random periodic features)\n")
print(structure(t(round(errors, 3)), dimnames = list(names(settings), n_features)))

png_file <- file.path(getwd(), "askrff-demo.png")
grDevices::png(png_file, width = 1100, height = 600, res = 110)
# A wide right margin holds the legend clear of the curves.
graphics::par(mar = c(4.5, 4.5, 3, 14))
# Every curve its own colour, line type and symbol.
colours <- grDevices::hcl.colors(length(settings), "Dark 3")
line_types <- rep_len(c(1, 2, 4, 5, 6), length(settings))
symbols <- rep_len(c(19, 17, 15, 18, 1, 2, 0), length(settings))
graphics::matplot(n_features, errors, log = "xy", type = "b", pch = symbols, lty = line_types, col = colours,
                  xlab = "frequencies (n_features)", ylab = "relative Frobenius error",
                  main = "askrff on datasets::quakes")
graphics::lines(n_features, errors[1, 1] * sqrt(n_features[1] / n_features), lty = 3, col = "grey40")
graphics::legend("topleft", inset = c(1.02, 0), xpd = TRUE, c(names(settings), "slope -1/2"),
                 col = c(colours, "grey40"), lty = c(line_types, 3), pch = c(symbols, NA), bty = "n", cex = 0.85)
grDevices::dev.off()
cat("\nPlot saved to", png_file, "\n")
