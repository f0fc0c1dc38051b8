// A Progress for core loops on the main thread: reports each whole percent
// of the work done to an R function of the percents gained (a progressr
// progressor wrapped in R), or nothing when given NULL.
#pragma once
#include <Rcpp.h>

namespace askrff {

class RProgress {
 public:
  explicit RProgress(SEXP report) : report_(report) {}
  void operator()(double fraction) {
    const int percent = static_cast<int>(fraction * 100.0);
    if (Rf_isNull(report_) || percent <= reported_) return;
    const Rcpp::Function report(report_);
    report(percent - reported_);
    reported_ = percent;
  }

 private:
  SEXP report_;
  int reported_ = 0;
};

}  // namespace askrff
