# The characteristic function of a part whose law is rotation invariant and
# known only by its radial density (the Jordan parts of the Delta-Gaussian,
# say), for approximation_study()'s "Theory": E_p cos(w'delta) =
# E Omega_d(R ||delta||) for the radius R ~ f_p, by Gauss-Legendre panels
# over f_p split where a Jordan part starts or stops being 0, then
# interpolated in ||delta|| through Chebyshev points.

# A function of the distance r in [0, r_max] giving E_p cos(w'delta), or
# NULL when r_max is not finite, the law is too heavy-tailed or too wide
# against r_max for the quadrature to stay small, or the quadrature does not
# integrate f_p to 1 within 1e-6.
radial_characteristic <- function(spec, d, p, r_max) {
  if (!is.finite(r_max)) return(NULL)
  density <- function(radius) core(.cpp_part_density(spec, d, p, radius))
  upper <- radial_support(density)
  if (is.null(upper)) return(NULL)
  r_max <- max(r_max, 1 / upper)  # all pairs at distance 0 still get a grid
  # Chebyshev interpolation converges once its degree passes about e/4 of
  # upper * r_max (the Chebyshev coefficients of cos(rho r) are Bessel
  # functions of rho r_max / 2); 40 more make it exact to rounding. Beyond
  # degree 1000 (data wide against the kernel) the cost is not worth it.
  degree <- ceiling(upper * r_max) + 40L
  if (degree > 1000L) return(NULL)
  rule <- radial_rule(density, upper, r_max)
  if (is.null(rule)) return(NULL)
  weight <- rule$weights * density(rule$nodes)
  # a tabulated law integrates to 1 only to its table's accuracy
  if (!isTRUE(abs(sum(weight) - 1) <= 1e-6)) return(NULL)
  weight <- weight / sum(weight)
  at <- r_max / 2 * (1 - cos(pi * (0:degree) / degree))
  values <- unlist(lapply(split(at, ceiling(seq_along(at) / 64)), function(block) {
    drop(weight %*% core(.cpp_omega_matrix(d, rule$nodes, block)))
  }), use.names = FALSE)
  # pairs are many, so they read a cubic spline through 64 equispaced values
  # per degree: h upper <= 1 / 64, so its error is about (5 / 384) h^4 E R^4
  # <= 0.013 / 64^4 = 8e-10 of E_p cos, far below what the study can see
  grid <- seq(0, r_max, length.out = 64L * degree + 1L)
  spline <- stats::splinefun(grid, chebyshev_interpolate(at, values, grid), method = "fmm")
  function(r) {
    r[] <- spline(r)
    r
  }
}

# Where f_p has fallen below 1e-16 of its peak for good, on a doubling grid
# so no scale has to be known; NULL for a law heavier-tailed than 2^24.
radial_support <- function(density) {
  at <- 2^seq(-12, 24, by = 0.25)
  values <- density(at)
  if (!all(is.finite(values)) || max(values) <= 0) return(NULL)
  last <- max(which(values > 1e-16 * max(values)))
  if (last == length(at)) NULL else at[last + 1L]
}

# 16-point Gauss-Legendre panels over [0, upper], at most upper / 256 wide
# and a quarter period of cos(r_max rho) wide, with panel edges where the
# density starts or stops being 0 (to rounding, by 60 bisections), so each
# panel's integrand is smooth. NULL beyond 20000 panels.
radial_rule <- function(density, upper, r_max) {
  grid <- seq(0, upper, length.out = 4097L)
  inside <- density(grid) > 0
  edges <- vapply(which(diff(inside) != 0), function(i) {
    lower <- grid[i]
    higher <- grid[i + 1L]
    for (step in 1:60) {
      middle <- (lower + higher) / 2
      if ((density(middle) > 0) == inside[i]) lower <- middle else higher <- middle
    }
    (lower + higher) / 2
  }, double(1))
  breaks <- c(0, edges, upper)
  width <- min(upper / 256, pi / (2 * r_max))
  counts <- pmax(1, ceiling(diff(breaks) / width))
  if (sum(counts) > 20000) return(NULL)
  starts <- unlist(Map(function(a, b, n) a + (b - a) * (seq_len(n) - 1) / n, breaks[-length(breaks)], breaks[-1L],
                       counts))
  half <- rep(diff(breaks) / counts, counts) / 2
  legendre <- gauss_legendre(16L)
  list(nodes = as.vector(outer(legendre$nodes + 1, half) + rep(starts, each = 16L)),
       weights = as.vector(outer(legendre$weights, half)))
}

# Nodes and weights of the n-point Gauss-Legendre rule on [-1, 1] (Golub and
# Welsch: the eigenvalues of the Jacobi matrix, weights from the first
# components of its eigenvectors).
gauss_legendre <- function(n) {
  k <- seq_len(n - 1L)
  jacobi <- matrix(0, n, n)
  jacobi[cbind(k, k + 1L)] <- jacobi[cbind(k + 1L, k)] <- k / sqrt(4 * k^2 - 1)
  eigen <- eigen(jacobi, symmetric = TRUE)
  list(nodes = rev(eigen$values), weights = rev(2 * eigen$vectors[1L, ]^2))
}

# The interpolant through (at, values) at Chebyshev points of the second
# kind, evaluated at the vector r by the barycentric formula, in blocks.
chebyshev_interpolate <- function(at, values, r) {
  n <- length(at)
  weights <- rep(c(1, -1), length.out = n)
  weights[c(1L, n)] <- weights[c(1L, n)] / 2
  for (block in split(seq_along(r), ceiling(seq_along(r) / 4096))) {
    gap <- outer(r[block], at, `-`)
    terms <- sweep(1 / gap, 2L, weights, `*`)
    result <- drop(terms %*% values) / rowSums(terms)
    on_node <- which(gap == 0, arr.ind = TRUE)
    result[on_node[, 1L]] <- values[on_node[, 2L]]
    r[block] <- result
  }
  r
}
