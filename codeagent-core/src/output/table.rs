use serde::Serialize;
use serde_json::{Value, json};

use super::{IntoToolResult, Presentation, ToolError, payload, records, to_json};
use crate::artifact::{Artifact, Kind};
use crate::mcp::NATIVE_EXTRA_KEY;
use crate::result::ToolResult;

/// Rows shown in a table's portable value unless [`Table::with_preview_rows`] says otherwise.
pub const DEFAULT_PREVIEW_ROWS: usize = 20;

/// Longest cell, in characters, written into the portable Markdown table.
const MAX_CELL_CHARS: usize = 200;

/// The JSON type of a column's values, inferred from them (nulls aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ColumnType {
    /// Whole numbers.
    Integer,
    /// Numbers, some with a fraction.
    Number,
    /// Strings.
    String,
    /// Booleans.
    Boolean,
    /// Objects, arrays, or a mix of types.
    Json,
    /// Only nulls.
    Null,
}

impl ColumnType {
    fn of(value: &Value) -> ColumnType {
        match value {
            Value::Null => ColumnType::Null,
            Value::Bool(_) => ColumnType::Boolean,
            Value::Number(number) if number.is_f64() => ColumnType::Number,
            Value::Number(_) => ColumnType::Integer,
            Value::String(_) => ColumnType::String,
            Value::Array(_) | Value::Object(_) => ColumnType::Json,
        }
    }

    fn unify(self, other: ColumnType) -> ColumnType {
        use ColumnType::{Integer, Json, Null, Number};
        match (self, other) {
            (Null, other) | (other, Null) => other,
            (a, b) if a == b => a,
            (Integer, Number) | (Number, Integer) => Number,
            _ => Json,
        }
    }
}

/// A column of a [`Table`]: its name and inferred type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Column {
    /// The column's name.
    pub name: String,
    /// The type of its values.
    #[serde(rename = "type")]
    pub ty: ColumnType,
}

/// A table of named, typed columns.
///
/// Its artifact payload is `{"df": {"columns": [{"name", "type"}], "rows": [[...]]}}`;
/// its portable value is a Markdown table of the first rows (20 unless
/// [`with_preview_rows`](Table::with_preview_rows) says otherwise) and a line such as
/// `Showing 20 of 1000 rows.` MCP clients get the value as the text and the
/// rows in the artifact in `_meta`; `structuredContent` only with
/// [`with_structured_content`](Table::with_structured_content).
///
/// ```
/// use codeagent_core::{IntoToolResult, Table};
///
/// let table = Table::new()
///     .with_column("region", ["north", "south"]).unwrap()
///     .with_column("total", [10, 7]).unwrap();
/// assert_eq!(
///     table.into_tool_result().value(),
///     "| region | total |\n| --- | --- |\n| north | 10 |\n| south | 7 |\n\n2 rows."
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<Value>>,
    preview_rows: usize,
    structured: bool,
    pub(crate) presentation: Presentation,
}

impl Default for Table {
    fn default() -> Self {
        Table::new()
    }
}

impl Table {
    /// A table with no columns, to fill with [`with_column`](Table::with_column).
    pub fn new() -> Self {
        Table {
            columns: Vec::new(),
            rows: Vec::new(),
            preview_rows: DEFAULT_PREVIEW_ROWS,
            structured: false,
            presentation: Presentation::default(),
        }
    }

    /// A table from records: each row serialises to an object (a struct or a
    /// map), its fields become columns in the order they first appear, and a
    /// field a row lacks is null.
    ///
    /// Fails, naming the row, when a row is not a record or holds a
    /// non-finite number.
    pub fn from_rows<T: Serialize>(rows: &[T]) -> Result<Table, ToolError> {
        let mut names: Vec<String> = Vec::new();
        let mut types: Vec<ColumnType> = Vec::new();
        let mut cells: Vec<Vec<Value>> = Vec::with_capacity(rows.len());
        for (index, row) in rows.iter().enumerate() {
            let fields = records::record(row, index, &names)?;
            if fields.names.is_empty() {
                // The same fields as the rows before, in the same order; their
                // types are taken in while the row is at hand.
                unify_row(&mut types, &fields.values);
                cells.push(fields.values);
                continue;
            }
            let mut placed = vec![Value::Null; names.len()];
            for (name, value) in fields.names.into_iter().zip(fields.values) {
                match names.iter().position(|known| *known == name) {
                    Some(position) => placed[position] = value,
                    None => {
                        names.push(name);
                        placed.push(value);
                    }
                }
            }
            types.resize(names.len(), ColumnType::Null);
            unify_row(&mut types, &placed);
            cells.push(placed);
        }
        // Rows read before a later row added columns lack them: null.
        for row in &mut cells {
            row.resize(names.len(), Value::Null);
        }
        let mut table = Table::new();
        table.rows = cells;
        table.columns = names.into_iter().zip(types).map(|(name, ty)| Column { name, ty }).collect();
        Ok(table)
    }

    /// Adds a column. Fails when the name is taken, when the column's length
    /// differs from the others', or when a value holds a non-finite number.
    pub fn with_column<V: Serialize>(
        mut self,
        name: impl Into<String>,
        values: impl IntoIterator<Item = V>,
    ) -> Result<Table, ToolError> {
        let name = name.into();
        if self.columns.iter().any(|column| column.name == name) {
            return Err(ToolError::new(format!("the table already has a column named `{name}`")));
        }
        let values = values
            .into_iter()
            .enumerate()
            .map(|(index, value)| to_json(&value, &format!("row {index} of column `{name}`")))
            .collect::<Result<Vec<_>, _>>()?;
        if self.columns.is_empty() && self.rows.is_empty() {
            self.rows = values.into_iter().map(|value| vec![value]).collect();
        } else if values.len() != self.rows.len() {
            return Err(ToolError::new(format!(
                "column `{name}` has {} values but the table has {} rows",
                values.len(),
                self.rows.len()
            )));
        } else {
            for (row, value) in self.rows.iter_mut().zip(values) {
                row.push(value);
            }
        }
        self.columns.push(Column { name, ty: ColumnType::Null });
        self.infer_types();
        Ok(self)
    }

    /// Sets how many rows the portable value shows.
    #[must_use]
    pub fn with_preview_rows(mut self, rows: usize) -> Self {
        self.preview_rows = rows;
        self
    }

    /// Also sends the whole table to MCP clients as `structuredContent`
    /// (`{"columns": [...], "rows": [...]}`), for clients that read the data
    /// from there.
    ///
    /// Without it the rows travel once, in the artifact in `_meta`, and
    /// `structuredContent` is left out: Claude Code and Codex hand their model
    /// `structuredContent` instead of the text when a result has both, so a
    /// table with it reaches those models as the whole JSON rather than as the
    /// bounded Markdown value. Opt in only where every host that calls the
    /// tool should pass the whole data to its model.
    ///
    /// ```
    /// use codeagent_core::{IntoToolResult, Table};
    ///
    /// let table = Table::new().with_column("n", [1, 2]).unwrap();
    /// assert!(table.clone().into_tool_result().into_call_result().structured_content().is_none());
    /// let structured = table.with_structured_content().into_tool_result().into_call_result();
    /// assert_eq!(structured.structured_content().unwrap()["rows"], serde_json::json!([[1], [2]]));
    /// ```
    #[must_use]
    pub fn with_structured_content(mut self) -> Self {
        self.structured = true;
        self
    }

    /// The columns.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The rows, each as long as [`columns`](Table::columns).
    pub fn rows(&self) -> &[Vec<Value>] {
        &self.rows
    }

    fn infer_types(&mut self) {
        // Row by row, the order the cells are in memory.
        let mut types = vec![ColumnType::Null; self.columns.len()];
        for row in &self.rows {
            unify_row(&mut types, row);
        }
        for (column, ty) in self.columns.iter_mut().zip(types) {
            column.ty = ty;
        }
    }

    /// The bounded Markdown rendering that is the table's portable value.
    pub fn to_markdown(&self) -> String {
        let total = self.rows.len();
        if self.columns.is_empty() {
            return "Empty table (no columns).".to_owned();
        }
        let mut markdown = String::new();
        push_row(&mut markdown, self.columns.iter().map(|column| escape_cell(&column.name)));
        push_row(&mut markdown, self.columns.iter().map(|_| "---".to_owned()));
        for row in self.rows.iter().take(self.preview_rows) {
            push_row(&mut markdown, row.iter().map(cell_text));
        }
        markdown.push('\n');
        let shown = total.min(self.preview_rows);
        let noun = if total == 1 { "row" } else { "rows" };
        if shown < total {
            markdown.push_str(&format!("Showing {shown} of {total} {noun}."));
        } else {
            markdown.push_str(&format!("{total} {noun}."));
        }
        markdown
    }

    /// The `df` payload: `{"columns": [...], "rows": [...]}`.
    pub(crate) fn into_df(self) -> Value {
        let columns = self.columns.iter().map(|column| json!({ "name": column.name, "type": column.ty })).collect();
        let rows = self.rows.into_iter().map(Value::Array).collect();
        Value::Object(payload([("columns", Value::Array(columns)), ("rows", Value::Array(rows))]))
    }
}

/// Takes the types of `row`'s cells into `types`, column by column.
fn unify_row(types: &mut Vec<ColumnType>, row: &[Value]) {
    if types.len() < row.len() {
        types.resize(row.len(), ColumnType::Null);
    }
    for (ty, cell) in types.iter_mut().zip(row) {
        *ty = ty.unify(ColumnType::of(cell));
    }
}

fn push_row(markdown: &mut String, cells: impl Iterator<Item = String>) {
    markdown.push('|');
    for cell in cells {
        markdown.push(' ');
        markdown.push_str(&cell);
        markdown.push_str(" |");
    }
    markdown.push('\n');
}

fn cell_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => escape_cell(text),
        other => escape_cell(&other.to_string()),
    }
}

fn escape_cell(text: &str) -> String {
    let mut cell = String::with_capacity(text.len().min(MAX_CELL_CHARS + 3));
    for (count, ch) in text.chars().enumerate() {
        if count == MAX_CELL_CHARS {
            cell.push('…');
            break;
        }
        match ch {
            '|' => cell.push_str("\\|"),
            '\n' | '\r' => cell.push(' '),
            other => cell.push(other),
        }
    }
    cell
}

impl IntoToolResult for Table {
    fn into_tool_result(self) -> ToolResult {
        let value = self.to_markdown();
        let presentation = self.presentation.clone();
        let structured = self.structured;
        let df = self.into_df();
        let native = structured.then(|| Value::Object(payload([("structuredContent", df.clone())])));
        let artifact = Artifact::new(Kind::Table, payload([("df", df)]));
        let result = ToolResult::new(value).with_artifact(presentation.apply(artifact));
        match native {
            Some(native) => result.with_extra(NATIVE_EXTRA_KEY, native),
            None => result,
        }
    }

    fn is_rich() -> bool {
        true
    }
}
