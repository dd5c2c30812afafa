//@ div
/* {{T}} division: any value when dividing by zero; MIN / -1 wraps. */
static {{T}} __seqc_div_{{N}}({{T}} a, {{T}} b)
{
  if (b == 0)
    return {{NONDET}};
{{SIGNED}}  if (b == -1)
{{SIGNED}}    return ({{T}})(0 - ({{U}})a);
  return a / b;
}
//@ rem
/* {{T}} remainder: any value for a zero divisor; MIN % -1 is 0. */
static {{T}} __seqc_rem_{{N}}({{T}} a, {{T}} b)
{
  if (b == 0)
    return {{NONDET}};
{{SIGNED}}  if (b == -1)
{{SIGNED}}    return 0;
  return a % b;
}
//@ shl
/* {{T}} left shift: any value for a negative or too large count. */
static {{T}} __seqc_shl_{{N}}({{T}} a, long long b)
{
  if (b < 0 || b >= {{BITS}})
    return {{NONDET}};
  return ({{T}})(({{U}})a << b);
}
//@ shr
/* {{T}} right shift: any value for a negative or too large count. */
static {{T}} __seqc_shr_{{N}}({{T}} a, long long b)
{
  if (b < 0 || b >= {{BITS}})
    return {{NONDET}};
  return a >> b;
}
//@ f2i
/* {{T}} from a floating value: any value when its integral part does
   not fit (NaN too). */
static {{T}} __seqc_f2i_{{N}}(double x)
{
  if (!({{INRANGE}}))
    return {{NONDET}};
  return ({{T}})x;
}
