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

# Each part's T_p (c_p m_p E_p cos(w'delta - theta_p)) and second moment
# S_p (c_p^2 m_p^2 E_p cos^2(.)) over the pairs of x and y, or NULL where
# there is no closed form (the Sinh-Gaussian's phase decomposition).
asymmetric_part_moments <- function(kernel, parts, x, y) {
  d <- ncol(x)
  sigma <- kernel$params$sigma
  vector <- if (kernel$name == "shift_gaussian") kernel$params$shift else -sigma^2 * kernel$params$beta
  a <- if (length(vector) == 1L) rep(vector, d) else vector
  s <- sqrt(sum(a^2)) / sigma
  amplitude <- if (kernel$name == "shift_gaussian") 1 else exp(s^2 / 2)
  distance2 <- pmax(outer(rowSums(x^2), rowSums(y^2), `+`) - 2 * tcrossprod(x, y), 0)
  along <- outer(drop(x %*% a), drop(y %*% a), `-`)  # a'delta
  if (identical(parts$part, "abs")) {
    if (kernel$name == "sinh_gaussian") return(NULL)
    # |mu| = A mu_g with the phase a'w on the left: A cos(w'(delta + a))
    shifted2 <- distance2 + 2 * along + sum(a^2)
    return(list(list(T = amplitude * exp(-shifted2 / (2 * sigma^2)),
                     S = amplitude^2 * (1 + exp(-2 * shifted2 / sigma^2)) / 2)))
  }
  beta <- if (s == 0) 0 * along else along / sum(a^2)
  perpendicular2 <- if (s == 0) distance2 else pmax(distance2 - along^2 / sum(a^2), 0)
  profile_of <- c(real_pos = if (kernel$name == "sinh_gaussian") "one" else "cos_pos", real_neg = "cos_neg",
                  imag_pos = "sin_pos")
  moments <- lapply(seq_len(nrow(parts)), function(p) {
    profile <- asymmetric_profiles[[profile_of[[parts$part[p]]]]]
    factor <- if (parts$part[p] == "real_pos" && kernel$name == "sinh_gaussian") 1 else amplitude
    theta <- parts$right_phase[p]
    first <- profile_cosine_mean(profile, s, beta, theta)
    second <- profile_cosine_mean(profile, s, 2 * beta, 2 * theta)
    if (is.null(first) || is.null(second)) return(NULL)
    cm <- parts$coefficient[p] * parts$mass[p]
    list(T = parts$coefficient[p] * factor * exp(-perpendicular2 / (2 * sigma^2)) * first,
         S = cm * (cm + parts$coefficient[p] * factor * exp(-2 * perpendicular2 / sigma^2) * second) / 2)
  })
  if (any(vapply(moments, is.null, logical(1)))) NULL else moments
}
