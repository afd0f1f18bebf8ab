//! Finding, reading and checking the net file; the cache does the rest.

use std::path::{Path, PathBuf};

use nnue_format::{layout, Architecture, Net};
use syn::LitStr;

use crate::cache::{self, Entry};
use crate::input::{NetInput, Source};

/// A checked net ready to emit.
pub struct Loaded {
    /// Absolute path, for `include_bytes!` (so editing the net rebuilds the crate).
    pub file: PathBuf,
    /// The path as the user gave it, for messages and docs.
    pub shown: String,
    /// The environment variable consulted, for rebuild tracking.
    pub env_var: Option<String>,
    pub arch: Architecture,
    /// The cache key (a hash of the net's bytes and description).
    pub key: String,
    pub entry: Entry,
}

fn err(span: &impl syn::spanned::Spanned, msg: impl std::fmt::Display) -> syn::Error {
    syn::Error::new(span.span(), format!("nnue_net!: {msg}"))
}

pub fn load(input: &NetInput) -> syn::Result<Loaded> {
    let span = input.span();
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // With `env`, a file from the environment takes its description from `<VAR>_ARCH` (if
    // any); `arch` describes the default file.
    let (shown, env_var, arch_lit) = match &input.source {
        Source::Path(p) => (p.value(), None, input.arch.clone()),
        Source::Env { var, default } => {
            let name = var.value();
            match (std::env::var(&name), default) {
                (Ok(v), _) if !v.is_empty() => {
                    let arch = std::env::var(format!("{name}_ARCH")).ok().map(|a| LitStr::new(&a, var.span()));
                    (v, Some(name), arch)
                }
                (_, Some(d)) => (d.value(), Some(name), input.arch.clone()),
                (_, None) => {
                    return Err(err(var, format!("environment variable {name} is not set and no `default` is given")))
                }
            }
        }
    };
    let file = resolve(&manifest_dir, &shown);
    let bytes = std::fs::read(&file).map_err(|e| {
        syn::Error::new(
            span,
            format!(
                "nnue_net!: can't read {shown}: {e} (paths are relative to the crate's manifest directory {})",
                manifest_dir.display()
            ),
        )
    })?;
    let arch_text = arch_lit.as_ref().map(LitStr::value);
    let given: Option<Architecture> = match (&arch_lit, &arch_text) {
        (Some(lit), Some(text)) => Some(text.parse().map_err(|e| err(lit, e))?),
        _ => None,
    };
    let key = cache::key(&bytes, arch_text.as_deref());
    let entry = match cache::lookup(&key) {
        Some(entry) => entry,
        None => {
            let net = Net::from_bytes(&bytes, given.as_ref()).map_err(|e| err(&span, format!("{shown}: {e}")))?;
            layout::check(&net).map_err(|e| err(&span, format!("{shown}: {e}")))?;
            let lizard = net.simple().is_some_and(|(a, p)| layout::screlu_fits_i16(&p.l1w, a.qa));
            cache::store(&key, net.arch.to_string(), &net.description, lizard, layout::fast_layout(&net))
                .map_err(|e| err(&span, format!("can't write the weight cache: {e} (set NNUE_CACHE_DIR)")))?
        }
    };
    let arch = entry.arch.parse().map_err(|e| err(&span, format!("corrupt cache entry {key}: {e}")))?;
    Ok(Loaded { file, shown, env_var, arch, key, entry })
}

/// Relative paths are taken from the manifest directory, then from the working directory.
fn resolve(manifest_dir: &Path, path: &str) -> PathBuf {
    let p = Path::new(path);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    let from_manifest = manifest_dir.join(p);
    if from_manifest.exists() {
        return from_manifest;
    }
    std::env::current_dir().map(|d| d.join(p)).ok().filter(|p| p.exists()).unwrap_or(from_manifest)
}
