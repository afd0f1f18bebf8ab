//! The macro's arguments: `"path"`, or `key = value` pairs.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::{bracketed, parenthesized, Ident, LitInt, LitStr, Token};

/// Where the net file comes from.
pub enum Source {
    Path(LitStr),
    /// A path from an environment variable read at compile time, with a fallback.
    Env {
        var: LitStr,
        default: Option<LitStr>,
    },
}

pub struct NetInput {
    /// Name of the generated module (`net` by default).
    pub name: Ident,
    pub source: Source,
    /// Architecture description, required for headerless nets.
    pub arch: Option<LitStr>,
    /// The layers after the accumulators as `nnue_format::layers::Layers` prints them: the net
    /// must compute exactly these.
    pub layers: Option<LitStr>,
    /// A layer sequence of one's own to compute after the accumulators, in place of the
    /// description's, over the arrays of the net's file layout.
    pub compute: Option<LitStr>,
    /// A file giving the order of the pairwise transform's neurons (`examples/neuron_order`
    /// writes one): the net is compiled with its neurons in that order.
    pub neuron_order: Option<LitStr>,
    /// `expect = [("FEN", value), …]`: evaluations the net as described must give.
    pub expect: Option<Expect>,
    /// `block = PATH`: the engine's implementation of the description's engine-defined input
    /// block (`threats=custom:N`), a static seen from inside the generated module.
    pub block: Option<syn::Path>,
}

/// `expect = [("FEN", value), …]`.
pub struct Expect {
    /// The `expect` key, where an error about the list as a whole points.
    pub key: Ident,
    /// Each position and its value; errors about one point at its FEN.
    pub pairs: Vec<(LitStr, i32)>,
}

impl Expect {
    fn parse(key: Ident, input: ParseStream) -> syn::Result<Self> {
        let list;
        bracketed!(list in input);
        let mut pairs = Vec::new();
        while !list.is_empty() {
            let pair;
            parenthesized!(pair in list);
            let fen: LitStr = pair.parse()?;
            pair.parse::<Token![,]>()?;
            let minus = pair.parse::<Option<Token![-]>>()?.is_some();
            let value: LitInt = pair.parse()?;
            let magnitude: i64 = value.base10_parse()?;
            let value = i32::try_from(if minus { -magnitude } else { magnitude })
                .map_err(|_| syn::Error::new(value.span(), "an expected value must fit an i32"))?;
            pair.parse::<Option<Token![,]>>()?;
            if !pair.is_empty() {
                return Err(pair.error("expected `(\"FEN\", value)`"));
            }
            pairs.push((fen, value));
            if !list.is_empty() {
                list.parse::<Token![,]>()?;
            }
        }
        if pairs.is_empty() {
            return Err(syn::Error::new(key.span(), "`expect = []` checks nothing: give `(\"FEN\", value)` pairs"));
        }
        Ok(Expect { key, pairs })
    }
}

impl NetInput {
    /// The span errors about the net file point at.
    pub fn span(&self) -> Span {
        match &self.source {
            Source::Path(p) => p.span(),
            Source::Env { default: Some(d), .. } => d.span(),
            Source::Env { var, .. } => var.span(),
        }
    }
}

impl Parse for NetInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let default_name = Ident::new("net", Span::call_site());
        if input.peek(LitStr) {
            let path: LitStr = input.parse()?;
            input.parse::<Option<Token![,]>>()?;
            if !input.is_empty() {
                return Err(input.error("expected `nnue_net!(\"file.nnue\")` or `nnue_net!(key = value, ...)`"));
            }
            return Ok(NetInput {
                name: default_name,
                source: Source::Path(path),
                arch: None,
                layers: None,
                compute: None,
                neuron_order: None,
                expect: None,
                block: None,
            });
        }
        let (mut name, mut path, mut env, mut default, mut arch, mut layers, mut compute, mut neuron_order) =
            (None, None, None, None, None, None, None, None);
        let mut expect: Option<Expect> = None;
        let mut block: Option<syn::Path> = None;
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let slot = match key.to_string().as_str() {
                "name" => {
                    name = Some(input.parse::<Ident>()?);
                    None
                }
                "path" => Some(&mut path),
                "env" => Some(&mut env),
                "default" => Some(&mut default),
                "arch" => Some(&mut arch),
                "layers" => Some(&mut layers),
                "compute" => Some(&mut compute),
                "neuron_order" => Some(&mut neuron_order),
                "block" => {
                    if block.is_some() {
                        return Err(syn::Error::new(key.span(), format!("`{key}` given twice")));
                    }
                    block = Some(input.parse::<syn::Path>()?);
                    None
                }
                "expect" => {
                    if expect.is_some() {
                        return Err(syn::Error::new(key.span(), format!("`{key}` given twice")));
                    }
                    expect = Some(Expect::parse(key.clone(), input)?);
                    None
                }
                _ => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                        "unknown key `{key}`: expected name, path, env, default, arch, layers, compute, neuron_order, expect or block"
                    ),
                    ))
                }
            };
            if let Some(slot) = slot {
                if slot.is_some() {
                    return Err(syn::Error::new(key.span(), format!("`{key}` given twice")));
                }
                *slot = Some(input.parse::<LitStr>()?);
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        let source = match (path, env, default) {
            (Some(p), None, None) => Source::Path(p),
            (None, Some(var), default) => Source::Env { var, default },
            (None, None, _) => return Err(input.error("give the net as `path = \"...\"` or `env = \"VAR\"`")),
            (Some(p), _, _) => return Err(syn::Error::new(p.span(), "`path` and `env`/`default` exclude each other")),
        };
        if let (Some(_), Some(c)) = (&layers, &compute) {
            return Err(syn::Error::new(
                c.span(),
                "`layers` checks the layers the net's description gives, `compute` replaces them: give one",
            ));
        }
        Ok(NetInput { name: name.unwrap_or(default_name), source, arch, layers, compute, neuron_order, expect, block })
    }
}
