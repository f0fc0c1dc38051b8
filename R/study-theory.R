# Closed-form variances of the estimators approximation_study() measures.
# The derivation is on approximation_study()'s help page, "Theory".

# The mean over pairs of the closed-form variance of one entry of K_hat for
# a method, one per number of features, or NA where there is none. Each
# method's moments are formed once; only the division by n (and the count
# variance) depends on the size.
theory_variance <- function(method, kernel, x, y, K, n_features, seed) {
  at_size <- switch(method$type,
    rff = rff_theory_variance(method, kernel, x, y, K, n_features[1L], seed),
    rpf = rpf_theory_variance(method, kernel, x, y),
    maclaurin = maclaurin_theory_variance(kernel, x, y, K),
    nystrom = ,
    tensor_sketch = ,
    custom = NULL)
  if (is.null(at_size)) return(rep(NA_real_, length(n_features)))
  # a variance that is 0 (pairs at distance 0) may come out as -1e-16
  vapply(n_features, function(n) mean(pmax(at_size(n), 0)), double(1))
}

# Random Maclaurin: n i.i.d. columns, each with second moment
# sum_n c_n^2 M^n / q_n (maclaurin_map()'s page), less the kernel squared.
maclaurin_theory_variance <- function(kernel, x, y, K) {
  coefficients <- dot_product_series(kernel)
  law <- maclaurin_law(coefficients)
  M <- outer(rowSums(x^2), rowSums(y^2)) + 2 * tcrossprod(x, y)^2 - 2 * tcrossprod(x^2, y^2)
  second <- Reduce(`+`, Map(function(c, q, p) c^2 / q * M^p, coefficients[law$degrees + 1L], law$probabilities,
                            law$degrees))
  function(n) (second - K^2) / n
}

# Random Fourier features with i.i.d. frequencies whose parts' moments are
# known: sum_p V_p / (n s_p) plus the variance of the counts. The parts and
# their shares do not depend on the size of the map drawn to read them.
rff_theory_variance <- function(method, kernel, x, y, K, n, seed) {
  map <- draw_map(method$design, n, resolve_seed(seed))
  parts <- map$parts
  if (map$method != "iid" || any(parts$features != "trig")) return(NULL)
  moments <- part_moments(kernel, map, x, y)
  if (is.null(moments)) return(NULL)
  used <- which(parts$share > 0)
  terms <- lapply(used, function(p) list(T = moments[[p]]$T, V = moments[[p]]$S - moments[[p]]$T^2,
                                         share = parts$share[p]))
  # the parts must add up to the kernel, or they were not identified right;
  # a tabulated measure's, to the kernel within the map's bias bound
  bound <- if (is.numeric(map$bias_bound) && is.finite(map$bias_bound)) map$bias_bound else 0
  if (!isTRUE(max(abs(Reduce(`+`, lapply(terms, `[[`, "T")) - K)) <= max(1e-8 * max(abs(K)), bound))) return(NULL)
  shares <- vapply(terms, `[[`, double(1), "share")
  within <- Reduce(`+`, lapply(terms, function(t) t$V / t$share))
  function(n) {
    if (map$allocation == "equal") return(within / n)
    within / n + count_variance(shares, n, lapply(terms, function(t) t$T / (n * t$share)))
  }
}

# Each part's T_p = c_p m_p E_p cos(w'delta - theta_p) and second moment
# S_p = c_p^2 m_p^2 E_p cos^2(w'delta - theta_p), or NULL where some part's
# are unknown. A sum's parts are named k<i>.<name> after its terms
# (kernel-arithmetic), so each goes to the term it came from: sums of
# asymmetric, product and signed kernels take their terms' moments.
part_moments <- function(kernel, map, x, y) {
  parts <- map$parts
  owners <- lapply(parts$part, part_owner, kernel = kernel)
  if (any(vapply(owners, is.null, logical(1)))) return(NULL)
  keys <- vapply(owners, `[[`, "", "key")
  moments <- vector("list", nrow(parts))
  for (key in unique(keys)) {
    rows <- which(keys == key)
    local <- parts[rows, , drop = FALSE]
    local$part <- vapply(owners[rows], `[[`, "", "name")
    found <- term_moments(owners[[rows[1L]]]$kernel, local, rows, map, x, y)
    if (is.null(found) || any(vapply(found, is.null, logical(1)))) return(NULL)
    moments[rows] <- found
  }
  moments
}

# The term of a sum a part belongs to, down through nested sums, with the
# part's name within it and the prefix that identifies the term.
part_owner <- function(kernel, name) {
  key <- ""
  while (kernel$name == "sum" && grepl("^k[0-9]+[.]", name)) {
    index <- as.integer(sub("^k([0-9]+)[.].*", "\\1", name))
    if (index > length(kernel$terms)) return(NULL)
    kernel <- kernel$terms[[index]]
    key <- paste0(key, "k", index, ".")
    name <- sub("^k[0-9]+[.]", "", name)
  }
  list(kernel = kernel, name = name, key = key)
}

# The moments of one term's parts (`local`, rows `rows` of the map's parts)
# from their characteristic functions Phi_p(j) = m_p E_p exp(i j w'delta):
# T_p = c_p Re(exp(-i theta_p) Phi_p(1)) and S_p = c_p^2 m_p (m_p +
# Re(exp(-2 i theta_p) Phi_p(2))) / 2.
term_moments <- function(term, local, rows, map, x, y) {
  if (identical(local$part, "abs") && term$name %in% asymmetric_kernel_names) {
    return(phase_part_moments(term, local, x, y))
  }
  if (any(local$phased)) return(NULL)
  characteristics <- term_characteristics(term, local, rows, map, x, y)
  if (is.null(characteristics)) return(NULL)
  lapply(seq_len(nrow(local)), function(p) {
    if (is.null(characteristics[[p]])) return(NULL)
    first <- characteristics[[p]](1)
    second <- characteristics[[p]](2)
    if (is.null(first) || is.null(second)) return(NULL)
    coefficient <- local$coefficient[p]
    mass <- local$mass[p]
    turn <- exp(-1i * local$right_phase[p])
    list(T = coefficient * Re(turn * first), S = coefficient^2 * mass * (mass + Re(turn^2 * second)) / 2)
  })
}

asymmetric_kernel_names <- c("shift_gaussian", "sinh_gaussian", "cosh_gaussian")

# Each part's Phi_p as a function of j: a product's from its factors'; a
# positive definite or asymmetric kernel's in closed form; other parts with
# rotation-invariant laws (the Delta-Gaussian's Jordan parts) by quadrature.
term_characteristics <- function(term, local, rows, map, x, y) {
  if (term$name == "product") return(lapply(local$part, product_characteristic, kernel = term, x = x, y = y))
  leaves <- lapply(local$part, leaf_characteristic, kernel = term, x = x, y = y)
  if (!any(vapply(leaves, is.null, logical(1)))) return(leaves)
  if (!all(local$density_variable == "radius")) return(NULL)
  spec <- kernel_with_settings(map$kernel, map$settings, map$d)
  distance <- sqrt(squared_distances(x, y))
  lapply(seq_along(rows), function(p) {
    kappa <- radial_characteristic(spec, map$d, rows[p], 2 * max(distance, 1e-300))
    if (is.null(kappa)) NULL else function(j) local$mass[p] * kappa(j * distance)
  })
}

# Phi of a kernel's part in closed form: a positive definite kernel's one
# part "pos" (mass k(0), so Phi(j) = k(j delta)), or an asymmetric
# kernel's; NULL otherwise.
leaf_characteristic <- function(kernel, name, x, y) {
  if (kernel$name %in% asymmetric_kernel_names) return(asymmetric_characteristic(kernel, name, x, y))
  if (name == "pos" && positive_kernel(kernel)) return(function(j) gram_matrix(kernel, j * x, j * y, 1L))
  NULL
}

# A product's part is named after one part of each factor, joined by "*";
# from the second factor on, a trailing "-" marks a difference frequency
# and "+" a sum (kernel_expressions.cpp). Its law is that of w_1 +- w_2 +-
# ..., so its Phi is the product of the factors' Phi, conjugated for a
# difference.
product_characteristic <- function(kernel, name, x, y) {
  tokens <- strsplit(name, "*", fixed = TRUE)[[1L]]
  if (length(tokens) != length(kernel$terms)) return(NULL)
  conjugate <- grepl("-$", tokens)
  factors <- Map(function(term, token) {
    owner <- part_owner(term, sub("[+-]$", "", token))
    if (is.null(owner)) NULL else leaf_characteristic(owner$kernel, owner$name, x, y)
  }, kernel$terms, tokens)
  if (any(vapply(factors, is.null, logical(1)))) return(NULL)
  function(j) {
    values <- lapply(seq_along(factors), function(i) factors[[i]](j))
    if (any(vapply(values, is.null, logical(1)))) return(NULL)
    Reduce(`*`, Map(function(value, flip) if (flip) Conj(value) else value, values, conjugate))
  }
}

positive_kernel <- function(kernel) {
  traits <- kernel_traits(kernel)
  traits$measure == "positive" && !traits$on_sphere
}

# Var(sum_p N_p a_p) over the systematic sampling of the counts
# (systematic_counts() in src/core/sampling.cpp): with offset u ~ U[0, 1),
# the counts through part j are ceil(C_j - u), C_j = n (s_1 + ... + s_j),
# the last part taking the rest. Each count is constant between the
# fractional parts of the C_j, so the variance is an exact finite sum.
count_variance <- function(share, n, a) {
  through <- n * cumsum(share)
  breaks <- sort(unique(c(0, 1, through - floor(through))))
  breaks <- breaks[breaks >= 0 & breaks <= 1]
  widths <- diff(breaks)
  middles <- breaks[-1L] - widths / 2
  values <- lapply(middles, function(u) {
    cumulative <- c(pmin(n, ceiling(utils::head(through, -1L) - u)), n)
    counts <- diff(c(0, cumulative))
    Reduce(`+`, Map(`*`, counts, a))
  })
  mean_value <- Reduce(`+`, Map(`*`, widths, values))
  Reduce(`+`, Map(function(w, v) w * v^2, widths, values)) - mean_value^2
}

# Random periodic features with i.i.d. frequencies: one frequency's product
# s f(a + xi) g(b + xi) has second moment s^2 sum_k A_k B_k kappa(k delta)
# over the Fourier coefficients A_k, B_k of f^2 and g^2.
rpf_theory_variance <- function(method, kernel, x, y) {
  args <- method$args
  if (args$method != "iid") return(NULL)
  left <- as_periodic_function(args$left, "left")
  right <- as_periodic_function(args$right, "right")
  at_zero <- kernel_at_zero(kernel, ncol(x))
  s <- at_zero / rpf_inner_product(left, right)
  series <- squared_map_series(left, right, function(k) gram_matrix(kernel, k * x, k * y, 1L) / at_zero,
                               same_rows(x, y))
  if (is.null(series)) return(NULL)
  expected <- kernel_matrix(rpf_expected_kernel(kernel, left, right), x, y, n_threads = 1L)
  function(n) (s^2 * series - expected^2) / n
}

# The most terms of squared_map_series() per study, and the table of
# coefficients its tail bounds are read from.
max_squared_terms <- 2000L
squared_table_size <- 2^15

# sum_k A_k B_k kappa(k delta) = A_0 B_0 + 2 sum_{k >= 1} A_k B_k kappa(k
# delta), with kappa(k) the matrix kappa(k delta) over the pairs and `same`
# the pairs at distance 0. f and g change sign over half a period, so f^2
# and g^2 have period pi and only even k enter. With a cosine side the sum
# ends at k = 2; for two step functions it runs until its tail, at most
# sum_{k > K} |A_k B_k| kappa(K delta) since kappa does not increase along
# rays, is below 1e-6 of A_0 B_0 for every pair at a positive distance,
# while pairs at distance 0 take its exact value <f^2, g^2>. NULL when that
# needs more than max_squared_terms terms (points almost equal).
squared_map_series <- function(left, right, kappa, same) {
  size <- if (left$name == "cos" || right$name == "cos") 1L else squared_table_size
  A <- squared_coefficients(left, size)
  B <- squared_coefficients(right, size)
  leading <- A$coefficients[1L] * B$coefficients[1L]
  products <- (A$coefficients * B$coefficients)[-1L]  # k = 2, 4, ...
  # beyond the table |A_k| <= V / (2 pi k) for the total variation V of f^2
  remainder <- A$variation * B$variation / (16 * pi^2 * size)
  tails <- rev(cumsum(rev(abs(products)))) - abs(products) + remainder
  value <- matrix(leading, nrow(same), ncol(same))
  for (j in seq_len(min(size, max_squared_terms))) {
    if (abs(products[j]) <= 1e-15 * leading && tails[j] <= 1e-15 * leading) break
    at <- kappa(2 * j)
    value <- value + 2 * products[j] * at
    if (size == 1L || 2 * tails[j] * max(at[!same], 0) <= 1e-6 * leading) break
    if (j == max_squared_terms) return(NULL)
  }
  if (size > 1L) value[same] <- A$inner(B)
  value
}

# A_0, A_2, ..., A_2K of f^2, its total variation over a period, and for a
# step function, a function giving <f^2, g^2> for another. The cosine: f^2 =
# (1 + cos 2t) / 2. A step function with level v_i on the cell
# (t_{i+1}, t_i) of [0, pi]: A_k = (1 / (pi k)) sum_i v_i^2 (sin k t_i -
# sin k t_{i+1}), from the jumps and levels the core reports.
squared_coefficients <- function(f, K) {
  if (f$name == "cos") {
    return(list(coefficients = c(1 / 2, 1 / 4, rep(0, K - 1L)), variation = 2))
  }
  traits <- core(.cpp_periodic_function(f$name))
  edges <- acos(c(-1, traits$cosine_jumps, 1))  # from pi down to 0
  squares <- traits$levels^2
  k <- 2 * seq_len(K)
  sines <- sin(outer(k, edges))
  coefficients <- c(sum(squares * -diff(edges)) / pi,
                    drop((sines[, -length(edges), drop = FALSE] - sines[, -1L, drop = FALSE]) %*% squares) / (pi * k))
  steps <- list(edges = rev(edges), squares = rev(squares))  # ascending t
  inner <- function(other) {
    cuts <- sort(unique(c(steps$edges, other$steps$edges)))
    middle <- (cuts[-1L] + cuts[-length(cuts)]) / 2
    level <- function(s) s$squares[findInterval(middle, s$edges, all.inside = TRUE)]
    sum(level(steps) * level(other$steps) * diff(cuts)) / pi
  }
  list(coefficients = coefficients, variation = 2 * sum(abs(diff(squares))), steps = steps, inner = inner)
}

# Which pairs of rows of x and y are equal.
same_rows <- function(x, y) {
  key <- function(m) apply(m, 1L, function(row) paste(sprintf("%a", row), collapse = " "))
  outer(key(x), key(y), `==`)
}
