# The arguments of approximation_study(): feature counts, metrics, and the
# methods it compares, each an argument list of a map's draw.

check_feature_counts <- function(n_features) {
  if (!is.numeric(n_features) || is.object(n_features) || length(n_features) < 1L || anyNA(n_features) ||
      any(!is.finite(n_features)) || any(n_features < 1) || any(n_features != round(n_features)) ||
      any(n_features > .Machine$integer.max) || anyDuplicated(n_features)) {
    fail("`n_features` must hold distinct positive whole numbers.")
  }
  sort(as.integer(n_features))
}

study_metrics <- c("frobenius", "spectral", "max_abs")

check_metrics <- function(metrics) {
  if (!is.character(metrics) || length(metrics) < 1L || anyNA(metrics) || !all(metrics %in% study_metrics) ||
      anyDuplicated(metrics)) {
    fail("`metrics` must hold distinct names among %s.", paste0('"', study_metrics, '"', collapse = ", "))
  }
  study_metrics[study_metrics %in% metrics]
}

# The methods as a named list of argument lists, each with its `type`.
study_methods <- function(methods) {
  if (is.character(methods) && !is.object(methods)) methods <- as.list(stats::setNames(methods, methods))
  if (!is.list(methods) || is.object(methods) || length(methods) < 1L) {
    fail("`methods` must be a character vector or a list of methods.")
  }
  labels <- names(methods)
  if (is.null(labels)) labels <- rep("", length(methods))
  methods <- lapply(seq_along(methods), function(i) study_method(methods[[i]], labels[i], i))
  labels <- vapply(methods, `[[`, "", "label")
  if (anyDuplicated(labels)) fail("`methods` must have distinct names; \"%s\" appears twice.", labels[anyDuplicated(labels)])
  stats::setNames(methods, labels)
}

# The arguments each type of method takes, with their defaults: one type
# per map kind of the registry (R/map-kinds.R), named without "_map" (rff
# methods take those of map_design()), and the user's own, "custom".
study_arguments <- function() {
  kinds <- lapply(map_kind_registry, `[[`, "arguments")
  c(stats::setNames(kinds, study_type(names(kinds))), list(custom = list(draw = NULL, gram = NULL)))
}

study_method <- function(method, label, i) {
  types <- study_arguments()
  where <- sprintf("`methods[[%d]]`", i)
  if (is.character(method) && length(method) == 1L && !is.na(method)) {
    if (label == "") label <- method
    named <- setdiff(names(types), c("rff", "custom"))
    method <- if (method %in% frequency_sources()) list(type = "rff", method = method) else
      if (method %in% named) list(type = method) else
        fail("%s must be one of %s, or a list of arguments with a `type`.", where,
             paste0('"', c(frequency_sources(), named), '"', collapse = ", "))
  }
  if (!is.list(method) || is.object(method)) fail("%s must be a method's name or a list of its arguments.", where)
  if (label == "") fail("%s is a list, so `methods` must name it.", where)
  given <- names(method)
  if (length(method) > 0L && (is.null(given) || anyNA(given) || any(given == "") || anyDuplicated(given))) {
    fail("%s must name each of its arguments once.", where)
  }
  type <- if (is.null(method$type)) "rff" else method$type
  type <- check_choice(type, names(types), sprintf("methods$%s$type", label))
  args <- method[setdiff(names(method), "type")]
  if (type != "rff") {
    takes <- names(types[[type]])
    unknown <- setdiff(names(args), takes)
    if (length(unknown) > 0L) {
      fail("`methods$%s` has arguments %s is not given: %s (it takes %s).", label, type,
           paste0("`", unknown, "`", collapse = ", "), paste0("`", takes, "`", collapse = ", "))
    }
    args <- utils::modifyList(types[[type]], args)
  }
  if (type == "custom" && (!is.function(args$draw) || !(is.null(args$gram) || is.function(args$gram)))) {
    fail(paste("`methods$%s` is custom, so its `draw` must be a function(n_features, seed) and its `gram`,",
               "if given, a function(map, x, y)."), label)
  }
  # a method is dispatched on by its kind (study_draw(), study_design(),
  # theory_variance())
  structure(list(label = label, type = type, args = args),
            class = c(if (type == "custom") "custom_study_method" else type_kind(type), "askrff_study_method"))
}

# Whole-number seeds for every trial and configuration, from the study's
# seed words; trial t's are the same whatever the number of trials.
study_seeds <- function(seed_words, trials, n_configs) {
  uniforms <- seed_uniforms(seed_words, trials * n_configs)
  matrix(floor(uniforms * 2^52), nrow = n_configs)
}

# A method made ready for its trials, once: a kind whose maps share a design
# (rff_map) checks its arguments here.
study_design <- function(method, kernel, d) UseMethod("study_design")

#' @export
study_design.askrff_study_method <- function(method, kernel, d) method
