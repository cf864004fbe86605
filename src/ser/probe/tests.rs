use super::{KeyError, key_text};

#[derive(serde::Serialize)]
enum E {
    Unit,
    New(u8),
}

fn text<T: serde::Serialize + ?Sized>(k: &T, some: bool) -> Result<String, String> {
    key_text(k, some, str::to_owned).map_err(|e| match e {
        KeyError::NotText(kind) => kind.to_owned(),
        KeyError::Custom(m) => format!("custom: {m}"),
    })
}

#[test]
fn text_keys_and_kinds() {
    assert_eq!(text("a", true), Ok("a".into()));
    assert_eq!(text(&'é', true), Ok("é".into()));
    assert_eq!(text(&E::Unit, true), Ok("Unit".into()));
    assert_eq!(text(&Some("a"), true), Ok("a".into()));
    assert_eq!(text(&Some("a"), false), Err("Some".into()));
    assert_eq!(text(&3u8, true), Err("integer".into()));
    assert_eq!(text(&E::New(1), true), Err("enum variant".into()));
    assert_eq!(text(&(1, 2), true), Err("tuple".into()));
    assert!(text(&1i128, true).unwrap_err().starts_with("custom: "));
}
