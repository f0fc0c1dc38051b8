# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
# Both first install whatever DESCRIPTION asks for that is missing.
R ?= R
RSCRIPT ?= Rscript
PKG := askrff
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz

.PHONY: deps install demo test cran sanitize docs bench clean

deps:
	$(RSCRIPT) tools/install-deps.R

# Installs from the built tarball, as a user's R CMD INSTALL of it would, so
# the vignettes are built and installed too.
install: deps
	rm -f $(TARBALL)
	$(R) CMD build .
	$(R) CMD INSTALL --preclean $(TARBALL)

demo: install
	$(RSCRIPT) -e 'demo("askrff", package = "askrff", ask = FALSE, echo = FALSE)'

# check-summary.R fails the build on any ERROR or WARNING of R CMD check, and
# prints the test counts and, last (where a CI log's tail shows it), every
# failed test. R CMD build has built the vignettes, running their code (a
# vignette that fails stops the build), so check does not run it again.
# NOT_CRAN=true runs the long statistical tests that CRAN's check skips.
test: deps
	rm -rf $(PKG).Rcheck $(TARBALL)
	$(R) CMD build .
	NOT_CRAN=true _R_CHECK_FORCE_SUGGESTS_=true $(R) CMD check --no-manual --no-vignettes $(TARBALL) || true
	$(RSCRIPT) tools/check-summary.R $(PKG).Rcheck

# The check CRAN runs on a submission (the long tests skipped, at most two
# threads); its log is $(PKG).Rcheck/00check.log.
cran: deps
	rm -rf $(PKG).Rcheck $(TARBALL)
	$(R) CMD build .
	$(R) CMD check --as-cran $(TARBALL) || true
	$(RSCRIPT) tools/check-summary.R $(PKG).Rcheck

# The test suite on a build with AddressSanitizer and UndefinedBehaviorSanitizer;
# fails on any report (tools/sanitize.sh).
sanitize: deps
	bash tools/sanitize.sh

# Regenerates RcppExports, NAMESPACE and man/ after a change to roxygen comments or exports.
docs:
	$(RSCRIPT) tools/install-deps.R --dev
	$(RSCRIPT) -e 'Rcpp::compileAttributes("."); roxygen2::roxygenise(".")'

# hardware.R and peers.R compare with numpy, scikit-learn and R on OpenBLAS
# (Debian's python3-sklearn and libopenblas0-pthread); peers.R takes about
# 40 minutes on two cores.
bench: install
	$(RSCRIPT) bench/features.R
	$(RSCRIPT) bench/periodic.R
	$(RSCRIPT) bench/maps.R
	$(RSCRIPT) bench/lp.R
	$(RSCRIPT) bench/nystrom.R
	$(RSCRIPT) bench/hardware.R
	$(RSCRIPT) bench/peers.R

clean:
	rm -rf $(PKG).Rcheck $(PKG).sanitize $(PKG)_*.tar.gz askrff-demo.png
	sh ./cleanup
