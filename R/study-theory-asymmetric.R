# The closed-form variance of the Shift-, Sinh- and Cosh-Gaussian maps, for
# approximation_study()'s "Theory" (derivation on its help page). Every part
# is A mu_g(w) h(a'w) (src/core/asymmetric_kernels.cpp, SPEC 1.3): with
# T = a'w ~ N(0, s^2), s = ||a|| / sigma, the projection of delta on a gives
# w'delta = beta T + G, beta = a'delta / ||a||^2, and G ~ N(0, ||delta_perp||^2
# / sigma^2) independent of T, so every moment the variance needs is a 1-D
# Gaussian expectation of h against a cosine, summed from h's Fourier series.

# h's Fourier series h(t) = h0 + c1 cos t + s1 sin t + sum_k hk(k) cos 2kt,
# and h(0).
asymmetric_profiles <- list(
  one = list(h0 = 1, c1 = 0, s1 = 0, hk = NULL, at_zero = 1),
  cos_pos = list(h0 = 1 / pi, c1 = 1 / 2, s1 = 0, hk = function(k) 2 / pi * (-1)^(k + 1) / (4 * k^2 - 1),
                 at_zero = 1),
  cos_neg = list(h0 = 1 / pi, c1 = -1 / 2, s1 = 0, hk = function(k) 2 / pi * (-1)^(k + 1) / (4 * k^2 - 1),
                 at_zero = 0),
  sin_pos = list(h0 = 1 / pi, c1 = 0, s1 = 1 / 2, hk = function(k) -2 / pi / (4 * k^2 - 1), at_zero = 0)
)

# The most series terms worth summing per pair; beyond (a shift or skew tiny
# against sigma), the study reports NA.
max_profile_terms <- 5000

# E h(T) cos(b T - theta) for T ~ N(0, s^2), elementwise over the matrix b:
# E cos(u T - theta) = cos(theta) exp(-u^2 s^2 / 2) and
# E sin(u T - theta) = -sin(theta) exp(-u^2 s^2 / 2). NULL when the series
# needs more than max_profile_terms terms; its terms are below exp(-40) of
# their coefficients from k on, with 2k - |b| >= 9 / s.
profile_cosine_mean <- function(profile, s, b, theta) {
  gauss <- function(u) exp(-u^2 * s^2 / 2)
  if (s == 0) return(profile$at_zero * cos(theta) + 0 * b)  # T = 0
  value <- profile$h0 * cos(theta) * gauss(b) +
    profile$c1 * cos(theta) * (gauss(b + 1) + gauss(b - 1)) / 2 +
    profile$s1 * sin(theta) * (gauss(1 - b) - gauss(1 + b)) / 2
  if (is.null(profile$hk)) return(value)
  terms <- ceiling((max(abs(b)) + 9 / s) / 2)
  if (terms > max_profile_terms) return(NULL)
  for (k in seq_len(terms)) value <- value + profile$hk(k) * cos(theta) * (gauss(b + 2 * k) + gauss(b - 2 * k)) / 2
  value
}

# What every part of the kernel shares: its vector a, s = ||a|| / sigma, the
# amplitude A, and over the pairs ||delta||^2, a'delta, beta = a'delta /
# ||a||^2 and ||delta_perp||^2.
asymmetric_geometry <- function(kernel, x, y) {
  sigma <- kernel$params$sigma
  vector <- if (kernel$name == "shift_gaussian") kernel$params$shift else -sigma^2 * kernel$params$beta
  a <- if (length(vector) == 1L) rep(vector, ncol(x)) else vector
  s <- sqrt(sum(a^2)) / sigma
  distance2 <- squared_distances(x, y)
  along <- outer(drop(x %*% a), drop(y %*% a), `-`)
  list(sigma = sigma, a = a, s = s, amplitude = if (kernel$name == "shift_gaussian") 1 else exp(s^2 / 2),
       distance2 = distance2, along = along, beta = if (s == 0) 0 * along else along / sum(a^2),
       perpendicular2 = if (s == 0) distance2 else pmax(distance2 - along^2 / sum(a^2), 0))
}

# Part `name`'s Phi(j) = m_p E_p exp(i j w'delta) over the pairs, as a
# function of j (NULL where the profile's series is too long), or NULL for
# a part it does not know.
asymmetric_characteristic <- function(kernel, name, x, y) {
  profile_of <- c(real_pos = if (kernel$name == "sinh_gaussian") "one" else "cos_pos", real_neg = "cos_neg",
                  imag_pos = "sin_pos")
  if (!name %in% names(profile_of)) return(NULL)
  profile <- asymmetric_profiles[[profile_of[[name]]]]
  g <- asymmetric_geometry(kernel, x, y)
  factor <- if (name == "real_pos" && kernel$name == "sinh_gaussian") 1 else g$amplitude
  function(j) {
    real <- profile_cosine_mean(profile, g$s, j * g$beta, 0)
    imaginary <- profile_cosine_mean(profile, g$s, j * g$beta, pi / 2)
    if (is.null(real) || is.null(imaginary)) return(NULL)
    factor * exp(-j^2 * g$perpendicular2 / (2 * g$sigma^2)) * complex(real = real, imaginary = imaginary)
  }
}

# decomposition = "phase": one part samples |mu| with the phase of mu on the
# left, so a draw is c m cos(w'delta + phi(w)), with mean c k(delta) and
# second moment c^2 m (m + Re Phi_2) / 2, Phi_2 = int |mu| e^{2i phi} e^{2i
# w'delta}. Shift and Cosh: |mu| = A mu_g and phi = a'w, so Phi_2 = A
# exp(-2 ||delta + a||^2 / sigma^2). Sinh: |mu| e^{2i phi} = mu_g g(a'w) with
# g(t) = (1 + i A sin t)^2 / sqrt(1 + A^2 sin^2 t), whose Fourier series
# gives Phi_2 as for the Jordan parts.
phase_part_moments <- function(kernel, local, x, y) {
  g <- asymmetric_geometry(kernel, x, y)
  coefficient <- local$coefficient
  mass <- local$mass
  if (kernel$name == "sinh_gaussian") {
    series <- sinh_phase_series(g$amplitude)
    if (is.null(series)) return(NULL)
    mean <- Reduce(`+`, Map(function(k, c) c * exp(-(2 * g$beta + k)^2 * g$s^2 / 2), series$k, series$coefficients))
    second <- exp(-2 * g$perpendicular2 / g$sigma^2) * Re(mean)
  } else {
    second <- g$amplitude * exp(-2 * (g$distance2 + 2 * g$along + sum(g$a^2)) / g$sigma^2)
  }
  list(list(T = coefficient * gram_matrix(kernel, x, y, 1L), S = coefficient^2 * mass * (mass + second) / 2))
}

# The Fourier coefficients of g(t) = (1 + i A sin t)^2 / sqrt(1 + A^2 sin^2
# t) by the FFT, on grids doubled until the coefficients in the grid's top
# quarter are below 1e-16 of the largest (g is analytic within |Im t| <
# asinh(1 / A), so they fall geometrically), keeping those above 1e-15 of
# the largest (below is rounding); NULL beyond 2^16 points (A in the
# thousands).
sinh_phase_series <- function(amplitude) {
  for (size in 2^(6:16)) {
    t <- 2 * pi * (seq_len(size) - 1) / size
    values <- (1 + 1i * amplitude * sin(t))^2 / sqrt(1 + amplitude^2 * sin(t)^2)
    coefficients <- stats::fft(values) / size
    k <- c(0:(size / 2 - 1), -(size / 2):-1)
    top <- abs(k) >= size / 4
    if (max(Mod(coefficients[top])) <= 1e-16 * max(Mod(coefficients))) {
      keep <- Mod(coefficients) > 1e-15 * max(Mod(coefficients))
      return(list(k = k[keep], coefficients = coefficients[keep]))
    }
  }
  NULL
}
